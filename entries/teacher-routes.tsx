/**
 * The teacher portal's route table: the spec's paths mapped to the pages of the features that own them.
 * Routes whose feature is not built yet show a plain "not available yet" page with their display name.
 * Every page is loaded lazily (lazyPage) and every route has a Chinese error element (RouteErrorPage).
 */
import type { ReactNode } from 'react';
import { Navigate, type RouteObject } from 'react-router-dom';
import { PortalLayout } from '../src/features/portal/portal-layout';
import { PORTAL_REDIRECTS, PORTAL_ROUTES } from '../src/shared/lib/portal-routes';
import { lazyPage } from '../src/shared/ui/lazy-page';
import { RouteErrorPage } from '../src/shared/ui/route-error-page';

// The features' providers load with their pages (the papers' and marking's read the session runtime, which
// the entry does not load statically; the analysis and team ones bring react-query and the team services).
const WithPapers = lazyPage(() => import('./teacher-feature-providers'), 'WithPapers');
const WithMarking = lazyPage(() => import('./teacher-feature-providers'), 'WithMarking');
const WithAnalysis = lazyPage(() => import('./teacher-analysis-provider'), 'WithAnalysis');
const WithTeam = lazyPage(() => import('./teacher-team-provider'), 'WithTeam');
const WithRehearse = lazyPage(() => import('./teacher-rehearse-provider'), 'WithRehearse');

// Each page is its own chunk, loaded on first visit: lazyPage(() => import('<module>'), '<ExportName>').
const CorrectPage = lazyPage(() => import('../src/features/marking/pages/correct-page'), 'CorrectPage');
const WritePage = lazyPage(() => import('../src/features/marking/pages/write-page'), 'WritePage');
const EditPage = lazyPage(() => import('../src/features/papers/pages/edit-page'), 'EditPage');
const PaperListPage = lazyPage(() => import('../src/features/papers/pages/paperlist-page'), 'PaperListPage');
const SchoolMaterialsPage = lazyPage(() => import('../src/features/papers/pages/school-materials-page'), 'SchoolMaterialsPage');
const PrintBarcodePage = lazyPage(() => import('../src/features/papers/pages/print-barcode-page'), 'PrintBarcodePage');
const PrintCalibrationPage = lazyPage(
  () => import('../src/features/papers/pages/print-calibration-page'),
  'PrintCalibrationPage',
);
const PrintCodePage = lazyPage(() => import('../src/features/papers/pages/print-code-page'), 'PrintCodePage');
const PaperBindingPage = lazyPage(() => import('../src/features/papers/pages/paper-binding-page'), 'PaperBindingPage');
const PrintGradePage = lazyPage(() => import('../src/features/papers/pages/print-grade-page'), 'PrintGradePage');
const PrintPaperPage = lazyPage(() => import('../src/features/papers/pages/print-paper-page'), 'PrintPaperPage');
const AboutPage = lazyPage(() => import('../src/features/portal/pages/about-page'), 'AboutPage');
const LandingPage = lazyPage(() => import('../src/features/portal/pages/landing-page'), 'LandingPage');
const LoginPage = lazyPage(() => import('../src/features/portal/pages/login-page'), 'LoginPage');
const NotFoundPage = lazyPage(() => import('../src/features/portal/pages/not-found-page'), 'NotFoundPage');
const ProtocolPage = lazyPage(() => import('../src/features/portal/pages/protocol-page'), 'ProtocolPage');
const UsersetPage = lazyPage(() => import('../src/features/portal/pages/userset-page'), 'UsersetPage');
const TeacherScanPage = lazyPage(() => import('./teacher-scan-page'), 'TeacherScanPage');
const TeacherLargeScreenPage = lazyPage(() => import('./teacher-large-screen'), 'TeacherLargeScreenPage');
const PendingPage = lazyPage(() => import('../src/features/portal/pages/pending-page'), 'PendingPage');
const OverviewPage = lazyPage(() => import('../src/features/analysis/pages/overview-page'), 'OverviewPage');
const PersonPage = lazyPage(() => import('../src/features/analysis/pages/person-page'), 'PersonPage');
const HomeworkAnalysisPage = lazyPage(
  () => import('../src/features/analysis/pages/homework-analysis-page'),
  'HomeworkAnalysisPage',
);
const CommentaryPage = lazyPage(() => import('../src/features/analysis/pages/commentary-page'), 'CommentaryPage');
const DetailsPage = lazyPage(() => import('../src/features/analysis/pages/details-page'), 'DetailsPage');
const ReportPage = lazyPage(() => import('../src/features/analysis/pages/report-page'), 'ReportPage');
const SubjectStatsPage = lazyPage(() => import('../src/features/analysis/pages/data-center-pages'), 'SubjectStatsPage');
const CorrectScorePage = lazyPage(() => import('../src/features/analysis/pages/data-center-pages'), 'CorrectScorePage');
const AverageScorePage = lazyPage(() => import('../src/features/analysis/pages/data-center-pages'), 'AverageScorePage');
const BigDataPage = lazyPage(() => import('../src/features/analysis/pages/big-data-page'), 'BigDataPage');
const RehearsePage = lazyPage(() => import('../src/features/rehearse/pages/rehearse-page'), 'RehearsePage');
const InvitePage = lazyPage(() => import('../src/features/team/pages/invite-page'), 'InvitePage');
const TeamDetailsPage = lazyPage(() => import('../src/features/team/pages/team-details-page'), 'TeamDetailsPage');
const TeamGroupPage = lazyPage(() => import('../src/features/team/pages/team-group-page'), 'TeamGroupPage');
const TeamMemberPage = lazyPage(() => import('../src/features/team/pages/team-member-page'), 'TeamMemberPage');

const PAGES: Record<string, ReactNode> = {
  '/': <LandingPage />,
  '/login': <LoginPage />,
  '/userset': <UsersetPage />,
  '/protocol': <ProtocolPage />,
  '/aboutUs': <AboutPage />,
  '/404': <NotFoundPage />,
  '/scan': <TeacherScanPage />,
  '/largescreen': <TeacherLargeScreenPage />,
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
  '/schoolmaterials': (
    <WithPapers>
      <SchoolMaterialsPage />
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
  '/analysis/grade': (
    <WithAnalysis>
      <OverviewPage kind="grade" />
    </WithAnalysis>
  ),
  '/analysis/class': (
    <WithAnalysis>
      <OverviewPage kind="class" />
    </WithAnalysis>
  ),
  '/analysis/person': (
    <WithAnalysis>
      <PersonPage />
    </WithAnalysis>
  ),
  '/assistant/analysis': (
    <WithAnalysis>
      <HomeworkAnalysisPage />
    </WithAnalysis>
  ),
  '/assistant/commentary': (
    <WithAnalysis>
      <CommentaryPage />
    </WithAnalysis>
  ),
  '/assistant/details': (
    <WithAnalysis>
      <DetailsPage />
    </WithAnalysis>
  ),
  '/assistant/papaerReport': (
    <WithAnalysis>
      <ReportPage />
    </WithAnalysis>
  ),
  '/dataCenter/subject': (
    <WithAnalysis>
      <SubjectStatsPage />
    </WithAnalysis>
  ),
  '/dataCenter/correctScore': (
    <WithAnalysis>
      <CorrectScorePage />
    </WithAnalysis>
  ),
  '/dataCenter/averageScore': (
    <WithAnalysis>
      <AverageScorePage />
    </WithAnalysis>
  ),
  '/bigData': (
    <WithAnalysis>
      <BigDataPage />
    </WithAnalysis>
  ),
  '/rehearse': (
    <WithRehearse>
      <RehearsePage />
    </WithRehearse>
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
  '/paperbinding': (
    <WithPapers>
      <PaperBindingPage />
    </WithPapers>
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
    errorElement: <RouteErrorPage />,
    children: [
      ...PORTAL_ROUTES.map((route) => ({
        path: route.path,
        element: PAGES[route.path] ?? <PendingPage title={route.name} />,
        errorElement: <RouteErrorPage />,
      })),
      ...Object.entries(PORTAL_REDIRECTS).map(([from, to]) => ({ path: from, element: <Navigate to={to} replace /> })),
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];
