import type * as Yaml from 'yaml';
import { lazyPackage } from '../lazy-package';

/** The YAML parser, loaded when a configuration file is read or exported. */
export const yaml = lazyPackage<typeof Yaml>('yaml');
