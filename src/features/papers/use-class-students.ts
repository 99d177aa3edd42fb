/** The students of one class, in code order, or an empty list while no class is chosen. */
import type { Student } from '../../shared/contract/papers';
import { fetchStudents } from './papers-api';
import { usePapersServices } from './papers-services';
import { useRemote } from '../../shared/ui/use-remote';

export function useClassStudents(classId: number | undefined): { students: Student[]; loading: boolean } {
  const { http } = usePapersServices();
  const remote = useRemote(classId ? `students:${classId}` : null, () => fetchStudents(http, classId ?? 0));
  return { students: remote.data ?? [], loading: remote.loading };
}
