/**
 * Semi's Table as a default export, for lazy-table.tsx to load beside a page's data. Imported as every
 * other Semi component is, so that the build splits it as it does them.
 */
import { Table } from '@douyinfe/semi-ui-19';

export default Table;
