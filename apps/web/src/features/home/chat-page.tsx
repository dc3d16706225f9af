import { Alert } from '@mantine/core';
import { IconMessageOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useBranding } from '../../api/status';
import { EmbeddedFrame, isFramableUrl } from '../../components/embedded-frame';

export default function ChatPage() {
  const { t } = useTranslation();
  const { chatLink } = useBranding();
  if (!isFramableUrl(chatLink)) {
    return (
      <Alert color="gray" icon={<IconMessageOff />} title={t('home.chatTitle')} mt="md">
        {t('home.chatNotConfigured')}
      </Alert>
    );
  }
  return <EmbeddedFrame src={chatLink} title={t('home.chatTitle')} />;
}
