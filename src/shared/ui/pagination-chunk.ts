/** Semi's Pagination on its own, for lazy-pagination.tsx. */
import { Pagination } from '@douyinfe/semi-ui-19';

export default Pagination;
