import { Tabs } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { isAdminRole } from '@gatehouse/shared';
import { useStoredUser } from '../../api/session';
import { PageTitle } from '../../components/page-title';
import { OperationSettings } from './operation-settings';
import { OtherSettings } from './other-settings';
import { PersonalSettings } from './personal-settings';
import { SystemSettings } from './system-settings';

const adminTabs = ['operation', 'system', 'other'] as const;

export default function SettingsPage() {
  const { t } = useTranslation();
  const user = useStoredUser();
  const isAdmin = user !== null && isAdminRole(user.role);
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab') ?? 'personal';
  const tab = isAdmin && (adminTabs as readonly string[]).includes(requested) ? requested : 'personal';

  return (
    <>
      <PageTitle title={t('settings.title')} />
      <Tabs
        value={tab}
        onChange={(value) =>
          setParams(value && value !== 'personal' ? { tab: value } : {}, { replace: true })
        }
        keepMounted={false}
      >
        <Tabs.List mb="lg">
          <Tabs.Tab value="personal">{t('settings.tabs.personal')}</Tabs.Tab>
          {isAdmin &&
            adminTabs.map((name) => (
              <Tabs.Tab key={name} value={name}>
                {t(`settings.tabs.${name}`)}
              </Tabs.Tab>
            ))}
        </Tabs.List>
        <Tabs.Panel value="personal">
          <PersonalSettings />
        </Tabs.Panel>
        {isAdmin && (
          <>
            <Tabs.Panel value="operation">
              <OperationSettings />
            </Tabs.Panel>
            <Tabs.Panel value="system">
              <SystemSettings />
            </Tabs.Panel>
            <Tabs.Panel value="other">
              <OtherSettings />
            </Tabs.Panel>
          </>
        )}
      </Tabs>
    </>
  );
}
