import { Accordion, Alert, Anchor, Badge, Code, Group, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { isAdminRole } from '@gatehouse/shared';
import { PageLoader } from '../../components/page-loader';
import { PageTitle } from '../../components/page-title';
import { useStoredUser } from '../../api/session';
import { groupOperations, openApiQueryOptions, type ReferenceEntry } from './api-reference-queries';

const methodColors: Record<string, string> = { GET: 'blue', POST: 'green', PUT: 'orange', DELETE: 'red' };

/** Long schema text wraps inside its block instead of widening the page on a phone. */
const wrapping = { whiteSpace: 'pre-wrap', wordBreak: 'break-word' } as const;

function Operation({ entry }: { entry: ReferenceEntry }) {
  const { t } = useTranslation();
  const { operation } = entry;
  const parameters = operation.parameters ?? [];
  const body = operation.requestBody?.content?.['application/json']?.schema;
  return (
    <Stack gap="xs">
      {operation.description && <Text size="sm">{operation.description}</Text>}
      {operation['x-client-protocol'] && (
        <Text size="sm">
          {t('apiReference.protocol')}: {operation['x-client-protocol']}
        </Text>
      )}
      {parameters.length > 0 && (
        <Table.ScrollContainer minWidth={320}>
          <Table striped withTableBorder>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('apiReference.parameter')}</Table.Th>
                <Table.Th>{t('apiReference.in')}</Table.Th>
                <Table.Th>{t('apiReference.required')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {parameters.map((parameter) => (
                <Table.Tr key={`${parameter.in}-${parameter.name}`}>
                  <Table.Td>
                    <Code>{parameter.name}</Code>
                  </Table.Td>
                  <Table.Td>{parameter.in}</Table.Td>
                  <Table.Td>{parameter.required ? t('apiReference.yes') : t('apiReference.no')}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {body !== undefined && (
        <>
          <Text size="sm" fw={500}>
            {t('apiReference.requestBody')}
          </Text>
          <Code block style={wrapping}>
            {JSON.stringify(body, null, 2)}
          </Code>
        </>
      )}
    </Stack>
  );
}

/** The API reference for admins: every path and method of /api/openapi.json, its parameters and schemas. */
export default function ApiReferencePage() {
  const { t } = useTranslation();
  const user = useStoredUser();
  const isAdmin = user !== null && isAdminRole(user.role);
  const { data: document, isPending, isError } = useQuery({ ...openApiQueryOptions(), enabled: isAdmin });
  if (!isAdmin) return <Alert color="yellow">{t('apiReference.adminsOnly')}</Alert>;
  if (isPending) return <PageLoader />;
  if (isError || !document) return <Alert color="red">{t('apiReference.loadFailed')}</Alert>;
  const groups = [...groupOperations(document)];
  return (
    <>
      <PageTitle title={t('apiReference.title')} />
      <Stack gap="md">
        <Text size="sm">
          {t('apiReference.intro', { version: document.info.version })}{' '}
          <Anchor href="/api/openapi.json" target="_blank" rel="noreferrer">
            /api/openapi.json
          </Anchor>
        </Text>
        {groups.map(([tag, entries]) => (
          <Stack key={tag} gap="xs">
            <Text fw={700} tt="capitalize">
              {tag}
            </Text>
            <Accordion variant="separated" multiple>
              {entries.map((entry) => (
                <Accordion.Item key={`${entry.method} ${entry.path}`} value={`${entry.method} ${entry.path}`}>
                  <Accordion.Control>
                    <Group gap="xs" wrap="nowrap" align="flex-start">
                      <Badge
                        color={methodColors[entry.method] ?? 'gray'}
                        variant="light"
                        style={{ flexShrink: 0 }}
                      >
                        {entry.method}
                      </Badge>
                      <Stack gap={0} style={{ minWidth: 0 }}>
                        <Code style={{ wordBreak: 'break-all' }}>{entry.path}</Code>
                        {entry.operation.summary && (
                          <Text size="xs" c="dimmed">
                            {entry.operation.summary}
                          </Text>
                        )}
                      </Stack>
                    </Group>
                  </Accordion.Control>
                  <Accordion.Panel>
                    <Operation entry={entry} />
                  </Accordion.Panel>
                </Accordion.Item>
              ))}
            </Accordion>
          </Stack>
        ))}
      </Stack>
    </>
  );
}
