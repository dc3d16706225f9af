import type { Document, LineCounter } from 'yaml';
import { configFileSchema, type ConfigFile } from './config-file-schema';
import { yaml } from './yaml-package';

export type FilePath = ReadonlyArray<string | number>;

/** A problem of the file, with where it is (1-based line and column) when known. */
export class ConfigFileError extends Error {
  constructor(
    readonly problem: string,
    readonly line: number | null,
    readonly column: number | null,
    readonly fileName = 'configuration file',
  ) {
    super(line === null ? `${fileName}: ${problem}` : `${fileName}:${line}:${column}: ${problem}`);
  }
}

/** The parsed file, and how to name the line and column of any of its paths. */
export interface ReadConfigFile {
  file: ConfigFile;
  locate(path: FilePath, problem: string): ConfigFileError;
}

const ENV_REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

function createLocator(document: Document, lines: LineCounter, fileName: string) {
  return (path: FilePath, problem: string): ConfigFileError => {
    // The nearest node that exists: a missing field is reported at the entry that lacks it.
    for (let length = path.length; length >= 0; length -= 1) {
      const node = length === 0 ? document.contents : document.getIn(path.slice(0, length), true);
      if (yaml().isNode(node) && node.range) {
        const { line, col } = lines.linePos(node.range[0]);
        const where = path.length > 0 ? `${path.join('.')}: ` : '';
        return new ConfigFileError(`${where}${problem}`, line, col, fileName);
      }
    }
    return new ConfigFileError(problem, null, null, fileName);
  };
}

/** `${NAME}` in any text is replaced by the environment variable, so secrets stay out of the file. */
function substituteEnvironment(
  value: unknown,
  path: FilePath,
  env: NodeJS.ProcessEnv,
  missing: Array<{ path: FilePath; name: string }>,
): unknown {
  if (typeof value === 'string') {
    return value.replace(ENV_REFERENCE, (_, name: string) => {
      const found = env[name];
      if (found === undefined) missing.push({ path, name });
      return found ?? '';
    });
  }
  if (Array.isArray(value))
    return value.map((item, index) => substituteEnvironment(item, [...path, index], env, missing));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        key,
        substituteEnvironment(item, [...path, key], env, missing),
      ]),
    );
  }
  return value;
}

/** Parses and checks the file's shape; throws ConfigFileError with line and column. Touches nothing. */
export function readConfigFile(
  text: string,
  env: NodeJS.ProcessEnv = process.env,
  fileName = 'configuration file',
): ReadConfigFile {
  const { LineCounter, parseDocument } = yaml();
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const syntaxError = document.errors[0];
  if (syntaxError) {
    const { line, col } = lines.linePos(syntaxError.pos[0]);
    throw new ConfigFileError(syntaxError.message.split('\n')[0] ?? 'invalid YAML', line, col, fileName);
  }
  const locate = createLocator(document, lines, fileName);
  const missing: Array<{ path: FilePath; name: string }> = [];
  const raw = substituteEnvironment(document.toJS() ?? {}, [], env, missing);
  const firstMissing = missing[0];
  if (firstMissing) throw locate(firstMissing.path, `environment variable ${firstMissing.name} is not set`);
  const parsed = configFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.path.filter((part): part is string | number => typeof part !== 'symbol');
    if (issue.code === 'unrecognized_keys') {
      const name = issue.keys[0]!;
      // at the misspelt key itself, not at its value
      const parent = path.length === 0 ? document.contents : document.getIn(path, true);
      const pair = yaml().isMap(parent)
        ? parent.items.find((item) => yaml().isScalar(item.key) && item.key.value === name)
        : null;
      if (pair && yaml().isNode(pair.key) && pair.key.range) {
        const { line, col } = lines.linePos(pair.key.range[0]);
        const where = [...path, name].join('.');
        throw new ConfigFileError(`${where}: unknown field "${name}"`, line, col, fileName);
      }
      throw locate([...path, name], `unknown field "${name}"`);
    }
    throw locate(path, issue.message);
  }
  return { file: parsed.data, locate };
}
