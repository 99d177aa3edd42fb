/**
 * Demo scans plugin: once the app is ready, scans the demo homework's answer sheets through the real
 * path in the background (services/scan/demo-scans.ts), when the demo school is seeded and this is not
 * a unit-test run. Stops drawing when the app closes; the next start resumes.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { runDemoScans } from '../services/scan/demo-scans';

export type DemoScansPluginOptions = { enabled: boolean };

async function demoScansPlugin(app: FastifyInstance, options: DemoScansPluginOptions) {
  if (!options.enabled) return;
  let closing = false;
  let job: Promise<unknown> = Promise.resolve();
  app.addHook('onReady', async () => {
    job = runDemoScans({
      db: app.database.db,
      scan: app.scan.service,
      contexts: app.marking.contexts,
      papers: app.papers.papers,
      marking: app.marking.marking,
      log: { info: (msg) => app.log.info(msg) },
      running: () => !closing,
    }).catch((error: unknown) => {
      if (!closing) app.log.error({ err: error }, 'demo scans failed');
    });
  });
  app.addHook('preClose', async () => {
    closing = true;
    await job;
  });
}

export default fp(demoScansPlugin, { name: 'demo-scans', dependencies: ['db', 'scan', 'marking', 'papers'] });
