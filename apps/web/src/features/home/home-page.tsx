import { lazy, Suspense } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useStoredUser } from '../../api/session';
import { PageLoader } from '../../components/page-loader';
import { homePageContentQueryOptions } from './home-queries';
import { NoticeBanner } from './notice-banner';
import { OperatorContent } from './operator-content';
import { Welcome } from './welcome';

const DashboardPage = lazy(() => import('../dashboard/dashboard-page'));

/** The public home: the operator's content, else a welcome. */
function PublicHome() {
  const { t } = useTranslation();
  const { data: content, isPending } = useQuery(homePageContentQueryOptions());
  return isPending ? (
    <PageLoader />
  ) : content?.trim() ? (
    <OperatorContent content={content} frameTitle={t('home.contentFrameTitle')} />
  ) : (
    <Welcome />
  );
}

/** `/`: the usage dashboard for a signed-in user, the public home for visitors. */
export default function HomePage() {
  const user = useStoredUser();
  return (
    <>
      <NoticeBanner />
      {user ? (
        <Suspense fallback={<PageLoader />}>
          <DashboardPage />
        </Suspense>
      ) : (
        <PublicHome />
      )}
    </>
  );
}
