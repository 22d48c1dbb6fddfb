/** The Gemini CLI host runs' user settings before Spillway: shared by the host test and the history capture. */

/** The user's settings before Spillway: API-key auth, no usage statistics, telemetry or update checks. */
export const GEMINI_USER_SETTINGS = {
  security: { auth: { selectedType: "gemini-api-key" } },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
  general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
};
