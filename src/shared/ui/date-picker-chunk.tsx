/** Semi's DatePicker as a default export, for lazy-date-picker.tsx to load on demand. */
import { DatePicker } from '@douyinfe/semi-ui-19';

export default DatePicker;
