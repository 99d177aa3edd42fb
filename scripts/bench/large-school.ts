/**
 * The benchmark's large school (issue 14, Speed): a school year of 1,000 students (20 classes of 50)
 * with 50 marked 数学 homework of 40 questions each, in an existing school: 2 million question scores and
 * as many answers, 200k marking tasks (the manual questions), about 4 % of students 缺考 per homework.
 * Everything is generated inside the database (generate_series, one homework per statement) so PGlite and
 * PostgreSQL build it in minutes; the analysis pre-aggregates fill through their triggers as in real use.
 * The generating model is crude on purpose (a per-student ability and a per-question difficulty, hashed):
 * the benchmark measures speed, not psychometrics.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../server/db/client';

export type LargeSchoolSize = { classes: number; perClass: number; homework: number; questions: number };
export const LARGE_SCHOOL: LargeSchoolSize = { classes: 20, perClass: 50, homework: 50, questions: 40 };

type Row = Record<string, unknown>;
const rows = async (db: Db, query: ReturnType<typeof sql>) => ((await db.execute(query)) as unknown as { rows: Row[] }).rows;

/** Builds the school year in the school; answers its id. `teacherId` authors and marks the homework. */
export async function seedLargeSchool(
  db: Db,
  orgId: number,
  teacherId: number,
  directorId: number,
  size: LargeSchoolSize = LARGE_SCHOOL,
  log: (message: string) => void = () => {},
): Promise<number> {
  const [year] = await rows(
    db,
    sql`insert into classes (org_id, type, name, sort) values (${orgId}, 1, '2030级（压测）', 99) returning id`,
  );
  const yearId = Number(year!.id);
  await db.execute(sql`insert into classes (org_id, pid, type, name, sort)
    select ${orgId}, ${yearId}, 2, '压测(' || c || ')班', c from generate_series(1, ${size.classes}) c`);
  await db.execute(sql`insert into students (org_id, class_id, name, code)
    select ${orgId}, k.id, '学生' || k.sort || '-' || s, 'L' || lpad(k.sort::text, 3, '0') || lpad(s::text, 3, '0')
    from classes k cross join generate_series(1, ${size.perClass}) s where k.pid = ${yearId} order by k.sort, s`);
  await db.execute(
    sql`insert into grade_directors (org_id, school_year_id, user_id) values (${orgId}, ${yearId}, ${directorId})`,
  );
  const [math] = await rows(db, sql`select id from subjects where org_id = ${orgId} and name = '数学'`);
  const subjectId = Number(math!.id);
  // 200 questions: by number mod 10, 6 single (3 marks), 1 multiple (4), 1 judge (2), 1 blank (2),
  // 1 subjective (10, marked by hand).
  const bank = 200;
  await db.execute(sql`insert into questions (org_id, subject_id, type, stem, options, answer, difficulty, created_by)
    select ${orgId}, ${subjectId},
      case when i % 10 < 6 then 'single' when i % 10 = 6 then 'multiple' when i % 10 = 7 then 'judge' when i % 10 = 8 then 'blank' else 'subjective' end,
      '压测题 ' || i,
      case when i % 10 < 7 then '["甲","乙","丙","丁"]'::jsonb else '[]'::jsonb end,
      case when i % 10 < 6 then '["A"]'::jsonb when i % 10 = 6 then '["A","C"]'::jsonb when i % 10 = 7 then '["对"]'::jsonb else '["略"]'::jsonb end,
      1 + i % 5, ${teacherId}
    from generate_series(0, ${bank - 1}) i`);
  await db.execute(sql`insert into question_knowledge_points (question_id, knowledge_point_id)
    select q.id, kp.id from (select id, row_number() over (order by id) - 1 as i from questions where org_id = ${orgId} and stem like '压测题 %') q
    join (select id, row_number() over (order by id) - 1 as j, count(*) over () as n from knowledge_points where subject_id = ${subjectId}) kp
      on kp.j = q.i % kp.n`);
  log(`large school: ${size.classes * size.perClass} students, ${bank} questions`);
  const started = Date.now();
  for (let h = 0; h < size.homework; h += 1) {
    const [paper] = await rows(
      db,
      sql`insert into papers (org_id, subject_id, school_year_id, title, created_by)
      values (${orgId}, ${subjectId}, ${yearId}, ${`压测作业 ${h + 1}`}, ${teacherId}) returning id`,
    );
    const paperId = Number(paper!.id);
    const [section] = await rows(
      db,
      sql`insert into paper_sections (paper_id, sort, title) values (${paperId}, 0, '一、综合') returning id`,
    );
    await db.execute(sql`insert into paper_questions (paper_id, section_id, question_id, no, score)
      select ${paperId}, ${Number(section!.id)}, q.id, n,
        case q.type when 'single' then 3 when 'multiple' then 4 when 'judge' then 2 when 'blank' then 2 else 10 end
      from generate_series(1, ${size.questions}) n
      join (select id, type, row_number() over (order by id) - 1 as i from questions where org_id = ${orgId} and stem like '压测题 %') q
        on q.i = (${h * 7}::int + n * 5) % ${bank}::int`);
    const dayOf = (days: number) => new Date(Date.UTC(2026, 2, 2 + days)).toISOString().slice(0, 10);
    const due = dayOf(h * 2 + 2);
    const [hw] = await rows(
      db,
      sql`insert into homework (org_id, paper_id, title, status, start_date, due_date, created_by)
      values (${orgId}, ${paperId}, ${`压测作业 ${h + 1}`}, 'finished', ${dayOf(h * 2)}::date, ${due}::date, ${teacherId}) returning id`,
    );
    const hwId = Number(hw!.id);
    await db.execute(
      sql`insert into homework_classes (homework_id, class_id) select ${hwId}, id from classes where pid = ${yearId}`,
    );
    // About 4 % absent (缺考 recorded): hashed per student and homework.
    await db.execute(sql`insert into homework_absences (homework_id, student_id, org_id, marked_by)
      select ${hwId}, s.id, ${orgId}, ${teacherId} from students s join classes k on k.id = s.class_id
      where k.pid = ${yearId} and (s.id * 7919 + ${hwId} * 104729) % 100 < 4`);
    // Right when the student's ability (hashed, 0..1) beats the question's difficulty plus noise.
    await db.execute(sql`
      with r as materialized (
        select nextval(pg_get_serial_sequence('answers', 'id')) as id, s.id as sid, pq.no, pq.score as fullmark, q.type,
          ((s.id * 2654435761) % 1000) / 1000.0 * 0.8 + 0.35 - q.difficulty * 0.08 + (((s.id * 31 + pq.no * 17 + ${hwId} * 13) % 97) / 97.0 - 0.5) * 0.6 as p
        from students s join classes k on k.id = s.class_id
        join paper_questions pq on pq.paper_id = ${paperId} join questions q on q.id = pq.question_id
        where k.pid = ${yearId} and not ((s.id * 7919 + ${hwId} * 104729) % 100 < 4)
      ),
      a as (
        insert into answers (id, org_id, homework_id, student_id, question_no, labels, auto_score)
        select id, ${orgId}, ${hwId}, sid, no,
          case when type = 'single' then case when p > 0.5 then '["A"]'::jsonb when p < 0.05 then '[]'::jsonb else '["B"]'::jsonb end
               when type = 'multiple' then case when p > 0.5 then '["A","C"]'::jsonb else '["A"]'::jsonb end
               when type = 'judge' then case when p > 0.5 then '["T"]'::jsonb else '["F"]'::jsonb end
               else null end,
          case when type in ('single', 'multiple', 'judge', 'blank') then case when p > 0.5 then fullmark when type = 'multiple' then 2 else 0 end end
        from r
      ),
      t as (
        insert into marking_tasks (org_id, homework_id, answer_id, student_id, question_no, round, marker_id, score, scored_at, created_at)
        select ${orgId}, ${hwId}, id, sid, no, 1, ${teacherId}, least(fullmark, greatest(0, round(p * fullmark))),
          ${due}::date::timestamp + (no || ' hours')::interval, now()
        from r where type = 'subjective'
      )
      insert into question_scores (homework_id, student_id, question_no, org_id, answer_id, score, source)
      select ${hwId}, sid, no, ${orgId}, id,
        case when type = 'subjective' then least(fullmark, greatest(0, round(p * fullmark)))
             when p > 0.5 then fullmark when type = 'multiple' then 2 else 0 end,
        case when type = 'subjective' then 'marked' else 'auto' end
      from r`);
    if ((h + 1) % 10 === 0) log(`large school: ${h + 1}/${size.homework} homework in ${Date.now() - started} ms`);
  }
  await db.execute(sql`analyze`);
  return yearId;
}
