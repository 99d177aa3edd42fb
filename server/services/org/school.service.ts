/**
 * Schools from nothing: creating a school (its creator becomes the first member), its settings (name,
 * region, type, logo, filing number and the score bands analysis reads), its school years, classes
 * and subjects, and switching the school one works in. Every call asks the permission module.
 */
import { randomBytes } from 'node:crypto';
import { and, asc, count, eq, isNull, max, sql } from 'drizzle-orm';
import type { CurrentUser } from '../../../src/shared/contract/auth';
import type { CreateSchool, SchoolDetail, SchoolStructure, UpdateSchool } from '../../../src/shared/contract/org';
import { PROMOTION_MESSAGES, promotedName, promotionOf } from '../../../src/shared/lib/grade-ladder';
import { CLASS_TYPE } from '../../../src/shared/contract/system';
import type { Db } from '../../db/client';
import { classes, memberships, orgs, subjects, users } from '../../db/schema';
import { ApiError } from '../../lib/api-error';
import { isUniqueViolation } from '../../lib/secrets';
import { type FileStorage, servedFileKey } from '../storage/file-storage';
import { detectImageKind } from '../user/avatar.service';
import { isManager, loadActor, requirePermission, syncGradeDirectorFlag } from './permissions';

export const LOGO_DIR = 'logos';
export const LOGO_MAX_BYTES = 2 * 1024 * 1024;

/** The subjects a new school starts with, by school type. */
const STARTING_SUBJECTS: Record<string, string[]> = {
  小学: ['语文', '数学', '英语', '科学', '道德与法治'],
  初中: ['语文', '数学', '英语', '物理', '化学', '生物', '历史', '地理', '道德与法治'],
  高中: ['语文', '数学', '英语', '物理', '化学', '生物', '历史', '地理', '思想政治'],
  完全中学: ['语文', '数学', '英语', '物理', '化学', '生物', '历史', '地理', '道德与法治', '思想政治'],
};

export type SchoolService = ReturnType<typeof createSchoolService>;

export function createSchoolService({
  db,
  storage,
  currentUser,
}: {
  db: Db;
  storage: FileStorage;
  currentUser: (userId: number) => Promise<CurrentUser>;
}) {
  async function requireNode(orgId: number, id: number, type?: number) {
    const [node] = await db
      .select()
      .from(classes)
      .where(and(eq(classes.id, id), eq(classes.orgId, orgId), type === undefined ? undefined : eq(classes.type, type)));
    if (!node) throw ApiError.notFound();
    return node;
  }

  async function requireSubjectRow(orgId: number, id: number) {
    const [row] = await db
      .select()
      .from(subjects)
      .where(and(eq(subjects.id, id), eq(subjects.orgId, orgId)));
    if (!row) throw ApiError.notFound();
    return row;
  }

  async function nextSort(orgId: number, type: number, pid: number | null) {
    const [row] = await db
      .select({ value: max(classes.sort) })
      .from(classes)
      .where(and(eq(classes.orgId, orgId), eq(classes.type, type), pid === null ? isNull(classes.pid) : eq(classes.pid, pid)));
    return (row?.value ?? 0) + 1;
  }

  async function detail(userId: number, orgId: number): Promise<SchoolDetail> {
    const actor = await loadActor(db, userId, orgId);
    const [org] = await db.select().from(orgs).where(eq(orgs.id, orgId));
    if (!org) throw ApiError.notFound();
    const [members] = await db.select({ value: count() }).from(memberships).where(eq(memberships.orgId, orgId));
    return {
      id: org.id,
      name: org.name,
      region: org.region,
      schoolType: org.schoolType,
      logo: org.logo,
      filingNumber: org.filingNumber,
      passPercent: org.passPercent,
      goodPercent: org.goodPercent,
      excellentPercent: org.excellentPercent,
      lowPercent: org.lowPercent,
      memberCount: members?.value ?? 0,
      myRole: actor.role,
      canManage: isManager(actor),
      joinCode: isManager(actor) ? org.joinCode : null,
    };
  }

  return {
    detail,

    /** The school's score bands, in percent, for analysis. */
    async bands(orgId: number) {
      const [org] = await db
        .select({ passPercent: orgs.passPercent, goodPercent: orgs.goodPercent, excellentPercent: orgs.excellentPercent })
        .from(orgs)
        .where(eq(orgs.id, orgId));
      if (!org) throw ApiError.notFound();
      return org;
    },

    /** Creates a school with its starting subjects; the caller becomes its creator and works in it. */
    async create(userId: number, input: CreateSchool): Promise<CurrentUser> {
      await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const [org] = await tx
          .insert(orgs)
          .values({ name: input.name, region: input.region, schoolType: input.schoolType, createdBy: userId })
          .returning({ id: orgs.id });
        await tx.insert(memberships).values({ orgId: org!.id, userId, role: 'creator' });
        await tx.insert(subjects).values(
          (STARTING_SUBJECTS[input.schoolType] ?? STARTING_SUBJECTS['初中']!).map((name, i) => ({
            orgId: org!.id,
            name,
            sort: i + 1,
          })),
        );
        await tx.update(users).set({ defaultOrgId: org!.id }).where(eq(users.id, userId));
      });
      return currentUser(userId);
    },

    async update(userId: number, orgId: number, input: UpdateSchool): Promise<SchoolDetail> {
      await requirePermission(db, userId, { kind: 'school.manage' }, orgId);
      await db
        .update(orgs)
        .set({
          name: input.name,
          region: input.region,
          schoolType: input.schoolType,
          filingNumber: input.filingNumber,
          passPercent: input.passPercent,
          goodPercent: input.goodPercent,
          excellentPercent: input.excellentPercent,
          ...(input.lowPercent === undefined ? {} : { lowPercent: input.lowPercent }),
        })
        .where(eq(orgs.id, orgId));
      return detail(userId, orgId);
    },

    /** Stores a logo image (checked by its bytes) and points the school at it. */
    async saveLogo(userId: number, orgId: number, data: Buffer): Promise<SchoolDetail> {
      await requirePermission(db, userId, { kind: 'school.manage' }, orgId);
      if (data.length === 0) throw ApiError.badRequest('请选择要上传的校徽图片');
      if (data.length > LOGO_MAX_BYTES) throw ApiError.badRequest('校徽图片不能超过 2 MB');
      const kind = detectImageKind(data);
      if (!kind) throw ApiError.badRequest('校徽仅支持 PNG、JPEG、WebP 或 GIF 图片');
      const relative = `${LOGO_DIR}/${randomBytes(16).toString('hex')}.${kind}`;
      await storage.write(servedFileKey(relative), data);
      const [previous] = await db.select({ logo: orgs.logo }).from(orgs).where(eq(orgs.id, orgId));
      await db.update(orgs).set({ logo: relative }).where(eq(orgs.id, orgId));
      if (previous?.logo && /^logos\/[0-9a-f]{32}\.(png|jpg|gif|webp)$/.test(previous.logo)) {
        await storage.remove(servedFileKey(previous.logo));
      }
      return detail(userId, orgId);
    },

    /** School years with their classes, and subjects, archived ones included and flagged. */
    async structure(userId: number, orgId: number): Promise<SchoolStructure> {
      await loadActor(db, userId, orgId);
      const [nodes, subjectRows] = await Promise.all([
        db.select().from(classes).where(eq(classes.orgId, orgId)).orderBy(asc(classes.sort), asc(classes.id)),
        db.select().from(subjects).where(eq(subjects.orgId, orgId)).orderBy(asc(subjects.sort), asc(subjects.id)),
      ]);
      const item = (n: { id: number; name: string; archivedAt: Date | null }) => ({
        id: n.id,
        name: n.name,
        archived: n.archivedAt !== null,
      });
      return {
        schoolYears: nodes
          .filter((n) => n.type === CLASS_TYPE.schoolYear)
          .map((year) => ({
            ...item(year),
            classes: nodes.filter((n) => n.type === CLASS_TYPE.klass && n.pid === year.id).map(item),
          })),
        subjects: subjectRows.map(item),
      };
    },

    /** A school year and its classes in one step. */
    async createSchoolYear(userId: number, orgId: number, input: { name: string; classNames: string[] }) {
      await requirePermission(db, userId, { kind: 'school.manage' }, orgId);
      if (new Set(input.classNames).size !== input.classNames.length) throw ApiError.badRequest('班级名称不能重复');
      const sort = await nextSort(orgId, CLASS_TYPE.schoolYear, null);
      const id = await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const [year] = await tx
          .insert(classes)
          .values({ orgId, type: CLASS_TYPE.schoolYear, name: input.name, sort })
          .returning({ id: classes.id });
        if (input.classNames.length > 0) {
          await tx
            .insert(classes)
            .values(input.classNames.map((name, i) => ({ orgId, pid: year!.id, type: CLASS_TYPE.klass, name, sort: i + 1 })));
        }
        // The first school year becomes the default of whoever has none yet in this school.
        await tx
          .update(memberships)
          .set({ defaultClassId: year!.id })
          .where(and(eq(memberships.orgId, orgId), isNull(memberships.defaultClassId)));
        return year!.id;
      });
      return { id };
    },

    /**
     * 升年级: the school year and its classes move one grade up (names renamed); the last grade graduates
     * (archived). Homework already set keeps the class names it was set with.
     */
    async promoteSchoolYear(userId: number, orgId: number, id: number): Promise<{ name: string; graduated: boolean }> {
      await requirePermission(db, userId, { kind: 'school.manage' }, orgId);
      const year = await requireNode(orgId, id, CLASS_TYPE.schoolYear);
      if (year.archivedAt) throw ApiError.badRequest('该学年已归档，不能升级');
      const promotion = promotionOf(year.name);
      if (!promotion) throw ApiError.badRequest(PROMOTION_MESSAGES.noGrade);
      const yearClasses = await db
        .select({ id: classes.id, name: classes.name })
        .from(classes)
        .where(and(eq(classes.orgId, orgId), eq(classes.pid, id)));
      await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        if (yearClasses.length > 0) {
          // History keeps the class names of the grade the homework was set in.
          await tx.execute(sql`update homework_classes hc set class_name = c.name from classes c
            where c.id = hc.class_id and c.pid = ${id} and c.org_id = ${orgId} and hc.class_name is null`);
        }
        if (promotion.to === null) {
          const archivedAt = new Date();
          await tx.update(classes).set({ archivedAt }).where(eq(classes.id, id));
          await tx
            .update(classes)
            .set({ archivedAt })
            .where(and(eq(classes.pid, id), eq(classes.orgId, orgId), isNull(classes.archivedAt)));
          return;
        }
        await tx
          .update(classes)
          .set({ name: promotedName(year.name, promotion) })
          .where(eq(classes.id, id));
        for (const klass of yearClasses) {
          const name = promotedName(klass.name, promotion);
          if (name !== klass.name) await tx.update(classes).set({ name }).where(eq(classes.id, klass.id));
        }
      });
      if (promotion.to === null) {
        const members = await db.select({ userId: memberships.userId }).from(memberships).where(eq(memberships.orgId, orgId));
        for (const member of members) await syncGradeDirectorFlag(db, orgId, member.userId);
      }
      return { name: promotedName(year.name, promotion), graduated: promotion.to === null };
    },

    async createClass(userId: number, orgId: number, schoolYearId: number, name: string) {
      await requirePermission(db, userId, { kind: 'school.manage' }, orgId);
      await requireNode(orgId, schoolYearId, CLASS_TYPE.schoolYear);
      const [row] = await db
        .insert(classes)
        .values({
          orgId,
          pid: schoolYearId,
          type: CLASS_TYPE.klass,
          name,
          sort: await nextSort(orgId, CLASS_TYPE.klass, schoolYearId),
        })
        .returning({ id: classes.id });
      return { id: row!.id };
    },

    /** Renames a school year or a class. */
    async renameClass(userId: number, orgId: number, id: number, name: string) {
      await requirePermission(db, userId, { kind: 'school.manage' }, orgId);
      await requireNode(orgId, id);
      await db.update(classes).set({ name }).where(eq(classes.id, id));
      return null;
    },

    /** Archives (or restores) a school year or a class; its history stays. A school year takes its classes along. */
    async archiveClass(userId: number, orgId: number, id: number, archived: boolean) {
      await requirePermission(db, userId, { kind: 'school.manage' }, orgId);
      const node = await requireNode(orgId, id);
      const archivedAt = archived ? new Date() : null;
      await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        await tx.update(classes).set({ archivedAt }).where(eq(classes.id, id));
        if (node.type === CLASS_TYPE.schoolYear) {
          await tx
            .update(classes)
            .set({ archivedAt })
            .where(and(eq(classes.pid, id), eq(classes.orgId, orgId)));
        }
      });
      if (node.type === CLASS_TYPE.schoolYear) {
        const members = await db.select({ userId: memberships.userId }).from(memberships).where(eq(memberships.orgId, orgId));
        for (const member of members) await syncGradeDirectorFlag(db, orgId, member.userId);
      }
      return null;
    },

    async createSubject(userId: number, orgId: number, name: string) {
      await requirePermission(db, userId, { kind: 'school.manage' }, orgId);
      const [last] = await db
        .select({ value: max(subjects.sort) })
        .from(subjects)
        .where(eq(subjects.orgId, orgId));
      try {
        const [row] = await db
          .insert(subjects)
          .values({ orgId, name, sort: (last?.value ?? 0) + 1 })
          .returning({ id: subjects.id });
        return { id: row!.id };
      } catch (error) {
        if (isUniqueViolation(error)) throw ApiError.badRequest('学科已存在');
        throw error;
      }
    },

    async renameSubject(userId: number, orgId: number, id: number, name: string) {
      await requirePermission(db, userId, { kind: 'school.manage' }, orgId);
      await requireSubjectRow(orgId, id);
      try {
        await db.update(subjects).set({ name }).where(eq(subjects.id, id));
      } catch (error) {
        if (isUniqueViolation(error)) throw ApiError.badRequest('学科已存在');
        throw error;
      }
      return null;
    },

    async archiveSubject(userId: number, orgId: number, id: number, archived: boolean) {
      await requirePermission(db, userId, { kind: 'school.manage' }, orgId);
      await requireSubjectRow(orgId, id);
      await db
        .update(subjects)
        .set({ archivedAt: archived ? new Date() : null })
        .where(eq(subjects.id, id));
      return null;
    },

    /** Makes another school the caller is a member of their default (their default school year there stays). */
    async switchSchool(userId: number, orgId: number): Promise<CurrentUser> {
      await loadActor(db, userId, orgId);
      await db.update(users).set({ defaultOrgId: orgId }).where(eq(users.id, userId));
      return currentUser(userId);
    },
  };
}
