/** Semi's Modal on its own, for lazy-confirm.ts: a page that only asks for confirmation now and then. */
export { Modal } from '@douyinfe/semi-ui-19';
