import { Paper, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PageLoader } from '../../components/page-loader';
import { PageTitle } from '../../components/page-title';
import { aboutQueryOptions } from './home-queries';
import { isFrameUrl, OperatorContent } from './operator-content';

export default function AboutPage() {
  const { t } = useTranslation();
  const { data: content, isPending } = useQuery(aboutQueryOptions());
  if (isPending) return <PageLoader />;
  if (content && isFrameUrl(content))
    return <OperatorContent content={content} frameTitle={t('home.aboutTitle')} />;
  return (
    <>
      <PageTitle title={t('home.aboutTitle')} />
      <Paper withBorder radius="md" p="lg">
        {content?.trim() ? (
          <OperatorContent content={content} frameTitle={t('home.aboutTitle')} />
        ) : (
          <Text c="dimmed">{t('home.aboutEmpty')}</Text>
        )}
      </Paper>
    </>
  );
}
