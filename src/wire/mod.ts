/**
 * What crosses vcc's process boundary and is shared by the CLI and the bridge: the projection
 * request object both read from JSON, and complete writes to the standard streams.
 *
 * @module
 */
export type { ProjectOptions } from "../core/mod.ts";
export {
  BUDGET_TOKENS,
  BUDGET_TOKENS_RULE,
  type ProjectRequest,
  ProjectRequestError,
  readProjectRequest,
  type StoreSource,
} from "./project_request.ts";
export { writeAll } from "./write_all.ts";
