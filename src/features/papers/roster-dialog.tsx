/**
 * 学生花名册: the students of a class of the current school year, and importing them from an Excel file
 * (the template's two columns 姓名 and 学号). A file with a bad row imports nothing: every bad row is
 * listed with its reason, so the teacher fixes the file and imports it again. Student codes are what the
 * answer sheets, QR codes and barcodes print.
 */
import { IconDownload, IconUpload } from '@douyinfe/semi-icons';
import { Banner, Button, Modal, Progress, Space, Table, Toast, Typography } from '@douyinfe/semi-ui-19';
import { useRef, useState } from 'react';
import { rosterImportResultSchema, type RosterRowError } from '../../shared/contract/papers';
import { useRemote } from '../../shared/ui/use-remote';
import { ClassSelect } from './class-select';
import styles from './compose.module.css';
import { fetchStudents } from './papers-api';
import { usePapersServices } from './papers-services';

const XLSX_TYPES = '.xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export function RosterDialog({ visible, onClose }: { visible: boolean; onClose: () => void }) {
  const { http } = usePapersServices();
  const [classId, setClassId] = useState<number | undefined>();
  const students = useRemote(classId ? `roster:${classId}` : null, () => fetchStudents(http, classId ?? 0));
  const [progress, setProgress] = useState<number | null>(null);
  const [rowErrors, setRowErrors] = useState<RosterRowError[]>([]);
  const input = useRef<HTMLInputElement>(null);

  const importFile = async (file: File) => {
    if (!classId) return;
    setRowErrors([]);
    setProgress(0);
    const body = new FormData();
    body.append('file', file, file.name);
    try {
      const result = await http.upload(
        `/api/classes/${classId}/students/import`,
        body,
        { onProgress: (ratio) => setProgress(ratio) },
        rosterImportResultSchema,
      );
      if (result.errors.length > 0) setRowErrors(result.errors);
      else Toast.success(`已导入 ${result.imported} 名学生`);
      students.reload();
    } catch {
      // The client has shown why (not an .xlsx, no header, a concurrent import ...).
    } finally {
      setProgress(null);
    }
  };

  return (
    <Modal title="学生花名册" visible={visible} onCancel={onClose} footer={null} width={640}>
      <div className={styles.dialogForm}>
        <Space wrap>
          <ClassSelect
            value={classId}
            onChange={(id) => {
              setClassId(id);
              setRowErrors([]);
            }}
            label="花名册班级"
          />
          <Button
            icon={<IconUpload />}
            theme="solid"
            disabled={!classId || progress !== null}
            onClick={() => input.current?.click()}
          >
            导入花名册
          </Button>
          <Button
            icon={<IconDownload />}
            onClick={() =>
              void http.downloadGet('/api/students/roster-template', undefined, '花名册模板.xlsx').catch(() => undefined)
            }
          >
            下载模板
          </Button>
        </Space>
        <input
          ref={input}
          type="file"
          accept={XLSX_TYPES}
          hidden
          aria-label="花名册文件"
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (file) void importFile(file);
          }}
        />
        <Typography.Text type="tertiary" size="small">
          模板第一行为“姓名”“学号”两列，学号为 4 到 20
          位数字；再次导入同一学号会更新姓名。文件中只要有一行有误，整份文件都不会导入。
        </Typography.Text>
        {progress !== null ? (
          <Progress percent={Math.round(progress * 100)} showInfo motion={false} aria-label="花名册上传进度" />
        ) : null}
        {rowErrors.length > 0 ? (
          <Banner
            type="danger"
            closeIcon={null}
            title={`花名册有 ${rowErrors.length} 行需要修改，本次没有导入任何学生`}
            description={
              <ul aria-label="花名册错误" className={styles.rosterErrors}>
                {rowErrors.map((error) => (
                  <li key={error.row}>{`第 ${error.row} 行：${error.reason}`}</li>
                ))}
              </ul>
            }
          />
        ) : null}
        {classId ? (
          <Table
            size="small"
            rowKey="id"
            loading={students.loading}
            dataSource={students.data ?? []}
            pagination={{ pageSize: 10 }}
            columns={[
              { title: '学号', dataIndex: 'code', width: 160 },
              { title: '姓名', dataIndex: 'name' },
            ]}
            empty="这个班级还没有学生，请下载模板填好后导入"
            aria-label="班级学生"
          />
        ) : (
          <Typography.Text type="secondary">请选择班级</Typography.Text>
        )}
      </div>
    </Modal>
  );
}
