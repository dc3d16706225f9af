import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PageLoader } from '../../components/page-loader';
import { homePageContentQueryOptions } from './home-queries';
import { NoticeBanner } from './notice-banner';
import { OperatorContent } from './operator-content';
import { Welcome } from './welcome';

export default function HomePage() {
  const { t } = useTranslation();
  const { data: content, isPending } = useQuery(homePageContentQueryOptions());
  return (
    <>
      <NoticeBanner />
      {isPending ? (
        <PageLoader />
      ) : content?.trim() ? (
        <OperatorContent content={content} frameTitle={t('home.contentFrameTitle')} />
      ) : (
        <Welcome />
      )}
    </>
  );
}
