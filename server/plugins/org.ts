/**
 * Org plugin: builds the school, member and invitation services over the database, the clock and the
 * account service's CurrentUser projection, and decorates `app.org` with them. Owns their wiring only;
 * the logic lives in services/org.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Clock } from '../lib/clock';
import { createInvitationService } from '../services/org/invitation.service';
import { createJoinRequestService } from '../services/org/join-request.service';
import { createMemberService } from '../services/org/member.service';
import { createRateLinesService } from '../services/org/rate-lines.service';
import { createSchoolService } from '../services/org/school.service';

export type OrgPluginOptions = { now: Clock };

function buildOrg(app: FastifyInstance, { now }: OrgPluginOptions) {
  const db = app.database.db;
  const currentUser = (userId: number) => app.accounts.users.currentUser(userId);
  return {
    schools: createSchoolService({ db, storage: app.storage, currentUser }),
    members: createMemberService({ db, currentUser }),
    invitations: createInvitationService({ db, now, currentUser }),
    joinRequests: createJoinRequestService({ db }),
    rateLines: createRateLinesService({ db }),
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    org: ReturnType<typeof buildOrg>;
  }
}

async function orgPlugin(app: FastifyInstance, options: OrgPluginOptions) {
  app.decorate('org', buildOrg(app, options));
}

export default fp(orgPlugin, { name: 'org', dependencies: ['db', 'files', 'accounts'] });
