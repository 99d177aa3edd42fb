/**
 * 学生花名册: the students of a class of the current school year: add one, edit, move to another class
 * (转班), archive (归档, e.g. left the school: kept with their history), and import or export the class
 * as an Excel file (the template's two columns 姓名 and 学号; an export imports back as it is). A file with
 * a bad row imports nothing: every bad row is listed with its reason, so the teacher fixes the file and
 * imports it again. Student codes are unique in the school and are what the answer sheets, QR codes and
 * barcodes print.
 */
import { IconDownload, IconPlus, IconUpload } from '@douyinfe/semi-icons';
import { Banner, Button, Checkbox, Input, Modal, Space, Tag, Toast, Typography } from '@douyinfe/semi-ui-19';
import { LazyTable } from '../../shared/ui/lazy-table';
import { useRef, useState } from 'react';
import {
  rosterImportResultSchema,
  type RosterRowError,
  type Student,
  studentInputSchema,
  studentListSchema,
  studentSchema,
} from '../../shared/contract/papers';
import { useRemote } from '../../shared/ui/use-remote';
import { ClassSelect } from './class-select';
import styles from './compose.module.css';
import { usePapersServices } from './papers-services';
import { ProgressBar } from '../../shared/ui/progress-bar';

const XLSX_TYPES = '.xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export function RosterDialog({ visible, onClose }: { visible: boolean; onClose: () => void }) {
  const { http } = usePapersServices();
  const [classId, setClassId] = useState<number | undefined>();
  const [withArchived, setWithArchived] = useState(false);
  const students = useRemote(classId ? `roster:${classId}:${withArchived}` : null, () =>
    http.get(`/api/classes/${classId ?? 0}/students`, withArchived ? { archived: 'true' } : undefined, studentListSchema),
  );
  const [editing, setEditing] = useState<Student | 'new' | null>(null);
  const archive = async (student: Student, archived: boolean) => {
    try {
      await http.postJson(`/api/students/${student.id}/archive`, { archived }, studentSchema);
      Toast.success(archived ? `已归档 ${student.name}` : `已恢复 ${student.name}`);
      students.reload();
    } catch {
      // The client has shown why.
    }
  };
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
          <Button
            icon={<IconDownload />}
            disabled={!classId}
            onClick={() =>
              void http
                .downloadGet(`/api/classes/${classId ?? 0}/students/export`, undefined, '花名册.xlsx')
                .catch(() => undefined)
            }
          >
            导出花名册
          </Button>
          <Button icon={<IconPlus />} disabled={!classId} onClick={() => setEditing('new')}>
            添加学生
          </Button>
          <Checkbox checked={withArchived} onChange={(event) => setWithArchived(Boolean(event.target.checked))}>
            显示已归档
          </Checkbox>
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
        {progress !== null ? <ProgressBar percent={Math.round(progress * 100)} showInfo aria-label="花名册上传进度" /> : null}
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
          <LazyTable
            size="small"
            rowKey="id"
            loading={students.loading}
            dataSource={students.data ?? []}
            pagination={{ pageSize: 10 }}
            columns={[
              { title: '学号', dataIndex: 'code', width: 130 },
              {
                title: '姓名',
                dataIndex: 'name',
                render: (name: string, student: Student) => (
                  <span>
                    {name}{' '}
                    {student.archived ? (
                      <Tag size="small" color="grey">
                        已归档
                      </Tag>
                    ) : null}
                  </span>
                ),
              },
              {
                title: '操作',
                width: 150,
                render: (_: unknown, student: Student) => (
                  <Space>
                    <Button
                      size="small"
                      theme="borderless"
                      onClick={() => setEditing(student)}
                      aria-label={`编辑 ${student.name}`}
                    >
                      编辑
                    </Button>
                    <Button
                      size="small"
                      theme="borderless"
                      type={student.archived ? 'primary' : 'danger'}
                      onClick={() => void archive(student, !student.archived)}
                    >
                      {student.archived ? '恢复' : '归档'}
                    </Button>
                  </Space>
                ),
              },
            ]}
            empty="这个班级还没有学生，请下载模板填好后导入"
            aria-label="班级学生"
          />
        ) : (
          <Typography.Text type="secondary">请选择班级</Typography.Text>
        )}
      </div>
      <Modal
        title={editing === 'new' ? '添加学生' : '编辑学生'}
        visible={editing !== null && classId !== undefined}
        onCancel={() => setEditing(null)}
        footer={null}
        width="min(420px, calc(100vw - 24px))"
      >
        {editing !== null && classId ? (
          <StudentForm
            key={editing === 'new' ? 'new' : editing.id}
            student={editing === 'new' ? null : editing}
            classId={classId}
            onDone={(changed) => {
              setEditing(null);
              if (changed) students.reload();
            }}
          />
        ) : null}
      </Modal>
    </Modal>
  );
}

/**
 * 添加学生 / 编辑学生: name, code and (when editing) the class, for 转班. In a Modal that stays mounted
 * (Semi's Modal does not open when it mounts already visible).
 */
function StudentForm({
  student,
  classId,
  onDone,
}: {
  student: Student | null;
  classId: number;
  onDone: (changed: boolean) => void;
}) {
  const { http } = usePapersServices();
  const [name, setName] = useState(student?.name ?? '');
  const [code, setCode] = useState(student?.code ?? '');
  const [target, setTarget] = useState<number | undefined>(student?.classId ?? classId);
  const [error, setError] = useState('');
  const [saving, setSaving] = useState(false);

  const save = async () => {
    const parsed = studentInputSchema.safeParse({ name, code });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? '请检查姓名和学号');
      return;
    }
    setError('');
    setSaving(true);
    try {
      if (student) await http.putJson(`/api/students/${student.id}`, { ...parsed.data, classId: target }, studentSchema);
      else await http.postJson(`/api/classes/${classId}/students`, parsed.data, studentSchema);
      Toast.success(student ? '已保存' : `已添加 ${parsed.data.name}`);
      onDone(true);
    } catch {
      // The client has shown why (a code another student has: 409 naming them).
    } finally {
      setSaving(false);
    }
  };

  return (
    <div className={styles.dialogForm}>
      <Input value={name} onChange={setName} prefix="姓名" aria-label="姓名" maxLength={20} />
      <Input value={code} onChange={setCode} prefix="学号" aria-label="学号" placeholder="4 到 20 位数字" />
      {student ? <ClassSelect value={target} onChange={setTarget} label="所在班级" /> : null}
      {error ? <Typography.Text type="danger">{error}</Typography.Text> : null}
      <Space>
        <Button theme="solid" loading={saving} onClick={() => void save()}>
          保存
        </Button>
        <Button onClick={() => onDone(false)}>取消</Button>
      </Space>
    </div>
  );
}
