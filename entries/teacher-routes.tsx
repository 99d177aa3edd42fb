/**
 * The teacher portal's route table: the spec's paths mapped to the pages of the features that own them.
 * Routes whose feature is not built yet show a plain "not available yet" page with their display name.
 */
import type { ReactNode } from 'react';
import { Navigate, type RouteObject } from 'react-router-dom';
import { CorrectPage } from '../src/features/marking/pages/correct-page';
import { WritePage } from '../src/features/marking/pages/write-page';
import { EditPage } from '../src/features/papers/pages/edit-page';
import { PaperListPage } from '../src/features/papers/pages/paperlist-page';
import { PrintBarcodePage } from '../src/features/papers/pages/print-barcode-page';
import { PrintCalibrationPage } from '../src/features/papers/pages/print-calibration-page';
import { PrintCodePage } from '../src/features/papers/pages/print-code-page';
import { PrintGradePage } from '../src/features/papers/pages/print-grade-page';
import { PrintPaperPage } from '../src/features/papers/pages/print-paper-page';
import { AboutPage } from '../src/features/portal/pages/about-page';
import { LandingPage } from '../src/features/portal/pages/landing-page';
import { LoginPage } from '../src/features/portal/pages/login-page';
import { NotFoundPage } from '../src/features/portal/pages/not-found-page';
import { PendingPage } from '../src/features/portal/pages/pending-page';
import { ProtocolPage } from '../src/features/portal/pages/protocol-page';
import { UsersetPage } from '../src/features/portal/pages/userset-page';
import { PortalLayout } from '../src/features/portal/portal-layout';
import { InvitePage } from '../src/features/team/pages/invite-page';
import { TeamDetailsPage } from '../src/features/team/pages/team-details-page';
import { TeamGroupPage } from '../src/features/team/pages/team-group-page';
import { TeamMemberPage } from '../src/features/team/pages/team-member-page';
import { PORTAL_REDIRECTS, PORTAL_ROUTES } from '../src/shared/lib/portal-routes';
import { TeacherScanPage } from './teacher-scan-page';
import { WithMarking, WithPapers } from './teacher-feature-providers';
import { WithTeam } from './teacher-team-provider';

const PAGES: Record<string, ReactNode> = {
  '/': <LandingPage />,
  '/login': <LoginPage />,
  '/userset': <UsersetPage />,
  '/protocol': <ProtocolPage />,
  '/aboutUs': <AboutPage />,
  '/404': <NotFoundPage />,
  '/scan': <TeacherScanPage />,
  '/edit': (
    <WithPapers>
      <EditPage />
    </WithPapers>
  ),
  '/paperlist': (
    <WithPapers>
      <PaperListPage />
    </WithPapers>
  ),
  '/printing': (
    <WithPapers>
      <PrintPaperPage />
    </WithPapers>
  ),
  '/printanswer': (
    <WithPapers>
      <PrintPaperPage answers />
    </WithPapers>
  ),
  '/pringtingtest': <PrintCalibrationPage title="打印测试" />,
  '/printgradetest': <PrintCalibrationPage title="打印成绩测试" />,
  '/printgrade': (
    <WithPapers>
      <PrintGradePage />
    </WithPapers>
  ),
  '/printcode': (
    <WithPapers>
      <PrintCodePage />
    </WithPapers>
  ),
  '/printBarcode': (
    <WithPapers>
      <PrintBarcodePage />
    </WithPapers>
  ),
  '/correct': (
    <WithMarking>
      <CorrectPage />
    </WithMarking>
  ),
  '/write': (
    <WithMarking>
      <WritePage />
    </WithMarking>
  ),
  '/team/details': (
    <WithTeam>
      <TeamDetailsPage />
    </WithTeam>
  ),
  '/team/member': (
    <WithTeam>
      <TeamMemberPage />
    </WithTeam>
  ),
  '/team/group': (
    <WithTeam>
      <TeamGroupPage />
    </WithTeam>
  ),
  '/invite': (
    <WithTeam>
      <InvitePage />
    </WithTeam>
  ),
};

export const teacherRoutes: RouteObject[] = [
  {
    element: <PortalLayout />,
    children: [
      ...PORTAL_ROUTES.map((route) => ({
        path: route.path,
        element: PAGES[route.path] ?? <PendingPage title={route.name} />,
      })),
      ...Object.entries(PORTAL_REDIRECTS).map(([from, to]) => ({ path: from, element: <Navigate to={to} replace /> })),
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];
