import { Button, Form, Modal } from '@douyinfe/semi-ui-19';
import { useState } from 'react';
import type { Role } from '../../shared/contract/auth';
import { ROLE_LABELS, type Member, type SchoolStructure } from '../../shared/contract/org';
import { updateMember } from './team-api';
import { useTeamServices } from './team-services';

type Values = { role: Role; gradeDirectorOf: number[]; classTeacherOf: number[]; assignments: string[] };

const pairKey = (a: { classId: number; subjectId: number }) => `${a.classId}:${a.subjectId}`;

/**
 * Role and duties of one member: grade director of school years, class teacher, subject teacher of
 * (class, subject). Stays mounted and opens when given a member: Semi's Modal does not open when it
 * mounts already visible (the 编辑 button then seemed to do nothing).
 */
export function MemberEditDialog(props: {
  orgId: number;
  member: Member | null;
  structure: SchoolStructure;
  canAppointCreator: boolean;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { member, onClose } = props;
  return (
    <Modal
      title={member ? `编辑 ${member.nickname}` : '编辑'}
      visible={member !== null}
      onCancel={onClose}
      footer={null}
      width={620}
    >
      {member ? <MemberEditForm key={member.userId} {...props} member={member} /> : null}
    </Modal>
  );
}

function MemberEditForm({
  orgId,
  member,
  structure,
  canAppointCreator,
  onSaved,
}: {
  orgId: number;
  member: Member;
  structure: SchoolStructure;
  canAppointCreator: boolean;
  onSaved: () => void;
}) {
  const { http } = useTeamServices();
  const [busy, setBusy] = useState(false);
  const years = structure.schoolYears.filter((y) => !y.archived || member.gradeDirectorOf.includes(y.id));
  const classes = structure.schoolYears.flatMap((y) => y.classes.map((c) => ({ ...c, label: `${y.name} ${c.name}` })));
  const subjects = structure.subjects;
  const pairs = classes
    .filter((c) => !c.archived)
    .flatMap((c) =>
      subjects.filter((s) => !s.archived).map((s) => ({ value: `${c.id}:${s.id}`, label: `${c.label}·${s.name}` })),
    );
  const roles: Role[] = canAppointCreator || member.role === 'creator' ? ['creator', 'admin', 'teacher'] : ['admin', 'teacher'];

  const save = async (values: Values) => {
    setBusy(true);
    try {
      await updateMember(http, orgId, member.userId, {
        role: values.role,
        gradeDirectorOf: values.gradeDirectorOf ?? [],
        classTeacherOf: values.classTeacherOf ?? [],
        assignments: (values.assignments ?? []).map((key) => {
          const [classId, subjectId] = key.split(':').map(Number);
          return { classId: classId!, subjectId: subjectId! };
        }),
      });
      onSaved();
    } catch {
      // Shown by the HTTP client.
    } finally {
      setBusy(false);
    }
  };

  return (
    <Form<Values>
      labelPosition="top"
      initValues={{
        role: member.role,
        gradeDirectorOf: member.gradeDirectorOf,
        classTeacherOf: member.classTeacherOf,
        assignments: member.assignments.map(pairKey),
      }}
      onSubmit={save}
    >
      <Form.Select
        field="role"
        label="角色"
        style={{ width: '100%' }}
        disabled={member.role === 'creator' && !canAppointCreator}
        optionList={roles.map((role) => ({ value: role, label: ROLE_LABELS[role] }))}
      />
      <Form.Select
        field="gradeDirectorOf"
        label="年级主任（所管学年）"
        multiple
        showClear
        style={{ width: '100%' }}
        optionList={years.map((y) => ({ value: y.id, label: y.name }))}
      />
      <Form.Select
        field="classTeacherOf"
        label="班主任（所带班级）"
        multiple
        showClear
        filter
        style={{ width: '100%' }}
        optionList={classes.filter((c) => !c.archived).map((c) => ({ value: c.id, label: c.label }))}
      />
      <Form.Select
        field="assignments"
        label="任课（班级·学科）"
        multiple
        showClear
        filter
        maxTagCount={6}
        style={{ width: '100%' }}
        optionList={pairs}
      />
      <Button htmlType="submit" theme="solid" loading={busy} block>
        保存
      </Button>
    </Form>
  );
}
