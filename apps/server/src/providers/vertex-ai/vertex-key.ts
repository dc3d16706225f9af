import type { ChannelConfig } from '@gatehouse/shared';
import { readVertexServiceAccount, type VertexServiceAccount } from './vertex-service-account';

/** A Vertex AI channel's key as the console composes it from the channel's Vertex fields. */
export const VERTEX_KEY_FORMAT =
  'region|project id|service account key JSON (e.g. us-central1|my-project|{"type": "service_account", ' +
  '"client_email": …, "private_key": …}), composed from the Region, Project ID and credentials fields';

export interface VertexCredentials {
  /** a Vertex AI location: us-central1, europe-west4, global, us, eu … */
  region: string;
  /** the project id, or its number */
  projectId: string;
  account: VertexServiceAccount;
}

/**
 * Vertex AI locations (https://cloud.google.com/vertex-ai/generative-ai/docs/learn/locations): regions such as
 * us-central1 or northamerica-northeast1, the global endpoint, and the us and eu multi-regions.
 */
const REGION = /^([a-z]+-[a-z]+\d+|global|us|eu)$/;
/** A project id (my-project-123, or example.com:my-project for domain-scoped projects) or a project number. */
const PROJECT = /^([a-z][a-z0-9.:-]*[a-z0-9]|\d+)$/;

type Reading = { credentials: VertexCredentials } | { problem: string };

function readParts(region: string, project: string, json: string): Reading {
  if (region === '') return { problem: 'the region is empty' };
  if (!REGION.test(region)) {
    return { problem: 'the region is not a Vertex AI location such as us-central1, europe-west4 or global' };
  }
  if (json === '') return { problem: 'the service account key is empty' };
  const reading = readVertexServiceAccount(json);
  if ('problem' in reading) return reading;
  const projectId = project || reading.account.projectId;
  if (projectId === '') return { problem: 'the project id is empty' };
  if (!PROJECT.test(projectId)) {
    return { problem: 'the project id is not a Google Cloud project id such as my-project-123' };
  }
  return { credentials: { region, projectId, account: reading.account } };
}

function readKey(key: string): Reading {
  const parts = key.trim().split('|');
  if (parts.length < 3) {
    return { problem: `it has ${parts.length} part${parts.length === 1 ? '' : 's'} separated by "|"` };
  }
  // The JSON comes last and may itself contain "|".
  const [region, project, ...json] = parts;
  return readParts(region!.trim(), project!.trim(), json.join('|').trim());
}

const describe = (problem: string) => `Vertex AI keys have the form ${VERTEX_KEY_FORMAT}: ${problem}`;

/** Why the key cannot be a Vertex AI key, naming the expected format, or null when it can. Never echoes the key. */
export function validateVertexKey(key: string): string | null {
  const reading = readKey(key);
  return 'problem' in reading ? describe(reading.problem) : null;
}

/**
 * Why a channel's Vertex fields (region, vertex_ai_project_id, vertex_ai_adc) cannot make a key, or null
 * when they can: for the form whose key is composed from them and came out empty.
 */
export function validateVertexConfig(config: ChannelConfig): string | null {
  const reading = readParts(
    config.region?.trim() ?? '',
    config.vertex_ai_project_id?.trim() ?? '',
    config.vertex_ai_adc?.trim() ?? '',
  );
  return 'problem' in reading ? describe(reading.problem) : null;
}

/** The credentials of a key that validateVertexKey accepts; throws with its message otherwise. */
export function parseVertexKey(key: string): VertexCredentials {
  const reading = readKey(key);
  if ('problem' in reading) throw new Error(describe(reading.problem));
  return reading.credentials;
}

/**
 * Where a key's requests go, read without loading its private key (every request needs this; only the
 * token request needs the key). The key was checked when the channel was saved and again when its token
 * was made; a key that is still not one throws.
 */
export function readVertexLocation(key: string): Pick<VertexCredentials, 'region' | 'projectId'> {
  const [region = '', project = ''] = key
    .trim()
    .split('|')
    .map((part) => part.trim());
  if (REGION.test(region) && PROJECT.test(project)) return { region, projectId: project };
  const { region: checkedRegion, projectId } = parseVertexKey(key);
  return { region: checkedRegion, projectId };
}
