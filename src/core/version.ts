/** The tool version written into results (kept equal to package.json's by a unit test). */
export const TOOL_VERSION = '0.1.0';
