/**
 * `--find-slices` of `evaluate`: the core's slice finder in a module of its own, which `evaluate`
 * loads only when the flag is given (the finder's statistics and the row tables of every task).
 */
import { findSlicesInFile } from '../core';

export { findSlicesInFile };
