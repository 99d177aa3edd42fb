/**
 * Semi's InputNumber as a default export, for Semi's Form.InputNumber to load when a form shows one
 * (vite.config.ts, SEMI_LAZY_FORM_FIELDS): through a module of ours, as form-select-chunk.ts.
 */
import { InputNumber } from '@douyinfe/semi-ui-19';

export default InputNumber;
