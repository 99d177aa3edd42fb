/**
 * Papers plugin: builds the question-bank, paper, question-set, homework and student services over the database and
 * decorates `app.papers` with them. Owns their wiring only; the logic lives in services/papers.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ANSWER_SHEETS_PRINTED_EVENT } from '../../src/shared/contract/large-screen';
import { syncHomeworkStatus } from '../services/marking/marking-progress';
import { createHomeworkService } from '../services/papers/homework.service';
import { createPaperService } from '../services/papers/paper.service';
import { createQuestionBankService } from '../services/papers/question-bank.service';
import { createQuestionSetService } from '../services/papers/question-set.service';
import { createStudentService } from '../services/papers/student.service';

function buildPapers(app: FastifyInstance) {
  const db = app.database.db;
  const bank = createQuestionBankService({ db });
  const papers = createPaperService({ db });
  const homework = createHomeworkService({
    db,
    papers,
    // The marking plugin (registered after this one) syncs the status and tells the pages watching it;
    // an app without it only syncs the status.
    statusChanged: async (orgId, homeworkId) => {
      if (app.hasDecorator('marking')) await app.marking.notifier.homeworkChanged(orgId, homeworkId);
      else await syncHomeworkStatus(db, orgId, homeworkId);
    },
    // The realtime plugin sends it to the homework's rooms (large screens); an app without it records only.
    sheetsPrinted: (orgId, event) => {
      if (app.hasDecorator('emitHomework')) app.emitHomework(orgId, event.homeworkId, ANSWER_SHEETS_PRINTED_EVENT, event);
    },
  });
  const students = createStudentService({ db });
  const sets = createQuestionSetService({ db });
  return { bank, papers, homework, students, sets };
}

declare module 'fastify' {
  interface FastifyInstance {
    papers: ReturnType<typeof buildPapers>;
  }
}

async function papersPlugin(app: FastifyInstance) {
  app.decorate('papers', buildPapers(app));
}

export default fp(papersPlugin, { name: 'papers', dependencies: ['db'] });
