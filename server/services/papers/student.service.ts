/**
 * Students (学生) of a school's classes and the roster import from an Excel file: every row is checked
 * first, and only a file without a bad row is written (in one transaction). Also builds the empty
 * roster template. Owns the roster file format (columns 姓名 and 学号, header in row 1).
 */
import ExcelJS from 'exceljs';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import {
  ROSTER_COLUMNS,
  type RosterImportResult,
  type RosterRowError,
  STUDENT_CODE_PATTERN,
  type Student,
  type StudentInput,
  type StudentUpdate,
} from '../../../src/shared/contract/papers';
import type { Db } from '../../db/client';
import { classes, students } from '../../db/schema';
import { ApiError } from '../../lib/api-error';
import { isUniqueViolation } from '../../lib/secrets';
import { guardXlsx, type XlsxLimits, XlsxRefused } from '../../lib/xlsx-guard';
import { requireClass, requireClasses, requireClassManager, requireSchool, type SchoolScope } from './school-scope';

/** Most students one file may hold. */
export const MAX_ROSTER_ROWS = 2000;
export const MAX_NAME_LENGTH = 20;

export const ROSTER_MESSAGES = {
  notXlsx: '请上传 .xlsx 格式的花名册文件',
  header: `花名册第一行必须包含“${ROSTER_COLUMNS.name}”和“${ROSTER_COLUMNS.code}”两列`,
  empty: '花名册中没有学生',
  tooMany: `一次最多导入 ${MAX_ROSTER_ROWS} 名学生`,
  tooLarge: `花名册文件内容过大，请只保留学生名单（最多 ${MAX_ROSTER_ROWS} 名学生）后重新上传`,
  tooManyRows: `花名册行数或单元格过多，一次最多导入 ${MAX_ROSTER_ROWS} 名学生，请删除多余的行和列后重新上传`,
  emptyName: '姓名不能为空',
  longName: `姓名不能超过 ${MAX_NAME_LENGTH} 个字`,
  emptyCode: '学号不能为空',
  badCode: '学号必须是 4 到 20 位数字',
  concurrent: '同一批学号正在被另一次导入写入，本次没有导入任何学生，请稍后重新导入',
} as const;

function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    if ('richText' in value)
      return value.richText
        .map((part) => part.text)
        .join('')
        .trim();
    if ('text' in value && typeof value.text === 'string') return value.text.trim();
    if ('result' in value && value.result !== undefined) return cellText(value.result as ExcelJS.CellValue);
  }
  return '';
}

type RosterRow = { row: number; name: string; code: string };

/**
 * What a roster may hold before it is parsed: a 2,000-student roster is well under a megabyte of XML;
 * room is left for formatting, blank rows and a few extra columns.
 */
export const ROSTER_XLSX_LIMITS: XlsxLimits = {
  maxUncompressedBytes: 20 * 1024 * 1024,
  maxEntries: 200,
  maxRows: MAX_ROSTER_ROWS * 5,
  maxCells: 100_000,
};

/** Reads the rows of the first sheet; throws a 400 for a file that is not a roster at all. */
async function readRoster(file: Buffer): Promise<RosterRow[]> {
  let checked: Uint8Array;
  try {
    checked = guardXlsx(file, ROSTER_XLSX_LIMITS);
  } catch (error) {
    if (!(error instanceof XlsxRefused)) throw error;
    throw ApiError.badRequest(error.problem === 'notZip' ? ROSTER_MESSAGES.notXlsx : ROSTER_MESSAGES[error.problem]);
  }
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(checked as unknown as ArrayBuffer);
  } catch {
    throw ApiError.badRequest(ROSTER_MESSAGES.notXlsx);
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) throw ApiError.badRequest(ROSTER_MESSAGES.notXlsx);
  const header = sheet.getRow(1);
  let nameColumn = 0;
  let codeColumn = 0;
  header.eachCell((cell, column) => {
    const text = cellText(cell.value);
    if (text === ROSTER_COLUMNS.name && !nameColumn) nameColumn = column;
    if (text === ROSTER_COLUMNS.code && !codeColumn) codeColumn = column;
  });
  if (!nameColumn || !codeColumn) throw ApiError.badRequest(ROSTER_MESSAGES.header);
  const rows: RosterRow[] = [];
  for (let r = 2; r <= sheet.rowCount; r += 1) {
    const row = sheet.getRow(r);
    const name = cellText(row.getCell(nameColumn).value);
    const code = cellText(row.getCell(codeColumn).value);
    if (name === '' && code === '') continue;
    rows.push({ row: r, name, code });
    if (rows.length > MAX_ROSTER_ROWS) throw ApiError.badRequest(ROSTER_MESSAGES.tooMany);
  }
  if (rows.length === 0) throw ApiError.badRequest(ROSTER_MESSAGES.empty);
  return rows;
}

export type StudentService = ReturnType<typeof createStudentService>;

/** Student codes are unique in the school: who has it. */
export const codeTakenMessage = (code: string, className: string, name: string) => `学号 ${code} 已被${className}的${name}使用`;

export function createStudentService({ db }: { db: Db }) {
  const columns = {
    id: students.id,
    classId: students.classId,
    name: students.name,
    code: students.code,
    archivedAt: students.archivedAt,
  };
  const toStudent = (row: { id: number; classId: number; name: string; code: string; archivedAt: Date | null }): Student => ({
    id: row.id,
    classId: row.classId,
    name: row.name,
    code: row.code,
    archived: row.archivedAt !== null,
  });

  /** 409 when another student of the school has the code, naming them. */
  async function assertCodeFree(scope: SchoolScope, code: string, exceptId?: number) {
    const [owner] = await db
      .select({ id: students.id, name: students.name, className: classes.name })
      .from(students)
      .innerJoin(classes, eq(classes.id, students.classId))
      .where(and(eq(students.orgId, scope.orgId), eq(students.code, code)));
    if (owner && owner.id !== exceptId) throw new ApiError(409, codeTakenMessage(code, owner.className, owner.name));
  }

  async function requireStudent(scope: SchoolScope, id: number) {
    const [row] = await db
      .select(columns)
      .from(students)
      .where(and(eq(students.id, id), eq(students.orgId, scope.orgId)));
    if (!row) throw ApiError.notFound();
    return row;
  }

  /** The unique (school, code) index caught a concurrent write of the same code. */
  const onTaken = (code: string) => (error: unknown) => {
    if (isUniqueViolation(error)) throw new ApiError(409, `学号 ${code} 已被本校其他学生使用`);
    throw error;
  };

  return {
    async list(userId: number, classId: number, withArchived = false): Promise<Student[]> {
      const scope = await requireSchool(db, userId);
      await requireClass(db, scope, classId);
      const rows = await db
        .select(columns)
        .from(students)
        .where(
          and(
            eq(students.orgId, scope.orgId),
            eq(students.classId, classId),
            withArchived ? undefined : isNull(students.archivedAt),
          ),
        )
        .orderBy(asc(students.code));
      return rows.map(toStudent);
    },

    async add(userId: number, classId: number, input: StudentInput): Promise<Student> {
      const scope = await requireSchool(db, userId);
      await requireClass(db, scope, classId);
      await requireClassManager(db, scope, classId);
      await assertCodeFree(scope, input.code);
      const [row] = await db
        .insert(students)
        .values({ orgId: scope.orgId, classId, name: input.name, code: input.code })
        .returning(columns)
        .catch(onTaken(input.code));
      return toStudent(row!);
    },

    /** Edits a student's name and code, or moves them to another class (managing both classes). */
    async update(userId: number, id: number, input: StudentUpdate): Promise<Student> {
      const scope = await requireSchool(db, userId);
      const current = await requireStudent(scope, id);
      await requireClassManager(db, scope, current.classId);
      if (input.classId !== current.classId) {
        await requireClasses(db, scope, [input.classId]);
        await requireClassManager(db, scope, input.classId);
      }
      await assertCodeFree(scope, input.code, id);
      const [row] = await db
        .update(students)
        .set({ name: input.name, code: input.code, classId: input.classId })
        .where(eq(students.id, id))
        .returning(columns)
        .catch(onTaken(input.code));
      return toStudent(row!);
    },

    async archive(userId: number, id: number, archived: boolean): Promise<Student> {
      const scope = await requireSchool(db, userId);
      const current = await requireStudent(scope, id);
      await requireClassManager(db, scope, current.classId);
      const [row] = await db
        .update(students)
        .set({ archivedAt: archived ? sql`now()` : null })
        .where(eq(students.id, id))
        .returning(columns);
      return toStudent(row!);
    },

    /** The class's students (archived ones left out) as a roster file that imports back as it is. */
    async exportRoster(userId: number, classId: number): Promise<{ file: Buffer; fileName: string }> {
      const scope = await requireSchool(db, userId);
      const klass = await requireClass(db, scope, classId);
      const rows = await db
        .select({ name: students.name, code: students.code })
        .from(students)
        .where(and(eq(students.orgId, scope.orgId), eq(students.classId, classId), isNull(students.archivedAt)))
        .orderBy(asc(students.code));
      return { file: await rosterWorkbook(rows), fileName: `${klass.name}-花名册.xlsx` };
    },

    async importRoster(userId: number, classId: number, file: Buffer): Promise<RosterImportResult> {
      const scope = await requireSchool(db, userId);
      await requireClass(db, scope, classId);
      await requireClassManager(db, scope, classId);
      const rows = await readRoster(file);

      const codes = [...new Set(rows.map((r) => r.code).filter((code) => STUDENT_CODE_PATTERN.test(code)))];
      const taken =
        codes.length === 0
          ? []
          : await db
              .select({ code: students.code, classId: students.classId, name: students.name, className: classes.name })
              .from(students)
              .innerJoin(classes, eq(classes.id, students.classId))
              .where(and(eq(students.orgId, scope.orgId), inArray(students.code, codes)));
      const takenByCode = new Map(taken.map((t) => [t.code, t]));

      const errors: RosterRowError[] = [];
      const firstRowOfCode = new Map<string, number>();
      for (const { row, name, code } of rows) {
        const reasons: string[] = [];
        if (name === '') reasons.push(ROSTER_MESSAGES.emptyName);
        else if ([...name].length > MAX_NAME_LENGTH) reasons.push(ROSTER_MESSAGES.longName);
        if (code === '') reasons.push(ROSTER_MESSAGES.emptyCode);
        else if (!STUDENT_CODE_PATTERN.test(code)) reasons.push(ROSTER_MESSAGES.badCode);
        else {
          const earlier = firstRowOfCode.get(code);
          if (earlier !== undefined) reasons.push(`学号 ${code} 与第 ${earlier} 行重复`);
          else firstRowOfCode.set(code, row);
          const owner = takenByCode.get(code);
          if (owner && owner.classId !== classId) reasons.push(codeTakenMessage(code, owner.className, owner.name));
        }
        if (reasons.length > 0) errors.push({ row, reason: reasons.join('；') });
      }
      if (errors.length > 0) return { imported: 0, errors };

      // Another import of the same codes may commit between the check above and this write: the unique
      // (school, code) index then rolls this one back whole, and the teacher is asked to try again.
      await db
        .transaction(async (tx) => {
          const existing = rows.filter((r) => takenByCode.has(r.code));
          for (const r of existing) {
            await tx
              .update(students)
              .set({ name: r.name, archivedAt: null })
              .where(and(eq(students.orgId, scope.orgId), eq(students.code, r.code)));
          }
          const fresh = rows.filter((r) => !takenByCode.has(r.code));
          if (fresh.length > 0) {
            await tx.insert(students).values(fresh.map((r) => ({ orgId: scope.orgId, classId, name: r.name, code: r.code })));
          }
        })
        .catch((error: unknown) => {
          if (isUniqueViolation(error)) throw new ApiError(409, ROSTER_MESSAGES.concurrent);
          throw error;
        });
      return { imported: rows.length, errors: [] };
    },
  };
}

/** The empty roster: the two header cells, 学号 formatted as text so leading zeros survive. */
export async function rosterTemplate(): Promise<Buffer> {
  return rosterWorkbook([]);
}

/** A roster file: 姓名 and 学号 (as text) and one row per student. */
async function rosterWorkbook(rows: { name: string; code: string }[]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = '智慧作业';
  const sheet = workbook.addWorksheet('花名册');
  sheet.columns = [
    { header: ROSTER_COLUMNS.name, key: 'name', width: 16 },
    { header: ROSTER_COLUMNS.code, key: 'code', width: 20, style: { numFmt: '@' } },
  ];
  sheet.getRow(1).font = { bold: true };
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
