import { Alert } from '@mantine/core';
import { IconSpeakerphone } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { MarkdownContent } from '../../components/markdown-content';
import { noticeQueryOptions } from './home-queries';

/** The operator's notice (option Notice), above the home page when there is one. */
export function NoticeBanner() {
  const { t } = useTranslation();
  const { data: notice } = useQuery(noticeQueryOptions());
  if (!notice?.trim()) return null;
  return (
    <Alert
      title={t('home.notice')}
      icon={<IconSpeakerphone />}
      color="blue"
      variant="light"
      mb="md"
      withCloseButton
    >
      <MarkdownContent markdown={notice} />
    </Alert>
  );
}
