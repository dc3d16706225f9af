import { TagsInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { groupsQueryOptions } from './users-queries';

interface GroupInputProps {
  value: string[];
  onChange: (groups: string[]) => void;
  error?: string;
}

/** Groups known to the server (GroupRatio and those in use) to pick from; a new name can be typed freely. */
export function GroupInput({ value, onChange, error }: GroupInputProps) {
  const { t } = useTranslation();
  const { data: groups = [] } = useQuery(groupsQueryOptions());
  return (
    <TagsInput
      label={t('users.form.group')}
      description={t('users.form.groupHint')}
      placeholder={t('users.form.groupPlaceholder')}
      data={groups}
      value={value}
      onChange={onChange}
      splitChars={[',', ' ']}
      clearable
      error={error}
    />
  );
}
