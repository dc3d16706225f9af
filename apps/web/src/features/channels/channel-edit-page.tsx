import { Paper } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLocation, useParams } from 'react-router';
import { PageLoader } from '../../components/page-loader';
import { PageTitle } from '../../components/page-title';
import { ChannelForm } from './channel-form';
import { channelToFormValues, newChannelFormValues } from './channel-form-schema';
import { channelQueryOptions } from './channels-queries';

/** /channel/add (new), /channel/add/{id} (a new channel copied from one), /channel/edit/{id}. */
export default function ChannelEditPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const { pathname } = useLocation();
  const channelId = id ? Number(id) : undefined;
  const isEdit = pathname.startsWith('/channel/edit/');
  const source = useQuery({ ...channelQueryOptions(channelId ?? 0), enabled: channelId !== undefined });

  const title = isEdit
    ? t('channels.form.editTitle')
    : source.data
      ? t('channels.form.copyTitle', { name: source.data.name })
      : t('channels.form.addTitle');

  let form = null;
  if (channelId === undefined) form = <ChannelForm initialValues={newChannelFormValues()} />;
  else if (source.data && isEdit) {
    form = (
      <ChannelForm
        key={source.data.id}
        initialValues={channelToFormValues(source.data)}
        editId={source.data.id}
      />
    );
  } else if (source.data) {
    const copyName = t('channels.form.copyName', { name: source.data.name });
    form = (
      <ChannelForm
        key={`copy-${source.data.id}`}
        initialValues={channelToFormValues(source.data, copyName)}
      />
    );
  }

  return (
    <>
      <PageTitle title={title} />
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'xl' }} maw={860}>
        {source.isLoading ? <PageLoader /> : form}
      </Paper>
    </>
  );
}
