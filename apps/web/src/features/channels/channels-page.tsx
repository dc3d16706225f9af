import { useState } from 'react';
import { Alert, Button } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_QUOTA_PER_UNIT } from '@gatehouse/shared';
import { useStatus } from '../../api/status';
import {
  DataTable,
  SearchBox,
  useListUrlState,
  usePagedList,
  pagingProps,
  ListFooter,
} from '../../components/data-table';
import { PageTitle } from '../../components/page-title';
import { channelKeys, listChannels, searchChannels } from './channels-queries';
import { useChannelColumns } from './channels-table';
import { useChannelActions } from './use-channel-actions';

/** A per-prompt flag in the browser records that the tip was dismissed. */
const TIP_DISMISSED_KEY = 'channel_tip_dismissed';

export default function ChannelsPage() {
  const { t } = useTranslation();
  const urlState = useListUrlState();
  const status = useStatus();
  const [isTipShown, setTipShown] = useState(() => localStorage.getItem(TIP_DISMISSED_KEY) !== 'true');
  const actions = useChannelActions();
  const list = usePagedList({
    queryKey: channelKeys.list(),
    fetchPage: (page, signal) => listChannels(page, signal),
    search: (keyword, signal) => searchChannels(keyword, signal),
    keyword: urlState.keyword,
  });
  const columns = useChannelColumns(actions, {
    displayInCurrency: status?.display_in_currency ?? true,
    quotaPerUnit: status?.quota_per_unit || DEFAULT_QUOTA_PER_UNIT,
  });
  const a = (key: string) => t(`channels.action.${key}`);

  return (
    <>
      <PageTitle title={t('channels.title')} description={t('channels.description')} />
      {isTipShown && (
        <Alert
          icon={<IconInfoCircle />}
          color="blue"
          variant="light"
          mb="md"
          withCloseButton
          onClose={() => {
            localStorage.setItem(TIP_DISMISSED_KEY, 'true');
            setTipShown(false);
          }}
        >
          {t('channels.tip')}
        </Alert>
      )}
      <SearchBox
        value={urlState.keyword}
        onSearch={urlState.setKeyword}
        placeholder={t('channels.searchPlaceholder')}
      />
      <DataTable
        columns={columns}
        {...pagingProps(list, urlState)}
        rowKey={(channel) => channel.id}
        emptyText={t('channels.empty')}
        footer={
          <ListFooter
            add={{ label: a('add'), to: '/channel/add' }}
            refreshLabel={a('refresh')}
            onRefresh={actions.refresh}
            list={list}
          >
            <Button size="sm" variant="light" onClick={actions.testAll}>
              {a('testAll')}
            </Button>
            <Button size="sm" variant="light" onClick={actions.testDisabled}>
              {a('testDisabled')}
            </Button>
            <Button
              size="sm"
              variant="light"
              onClick={actions.updateAllBalances}
              loading={actions.isUpdatingAllBalances}
            >
              {a('updateAllBalances')}
            </Button>
            <Button size="sm" variant="light" color="red" onClick={actions.removeDisabled}>
              {a('deleteDisabled')}
            </Button>
          </ListFooter>
        }
      />
    </>
  );
}
