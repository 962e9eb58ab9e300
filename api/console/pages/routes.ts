// Every route of the console's pages (under /v2/console): the session pages (sign-in, home, mode, step-up,
// sign-out) and one list per group.
import type { AnyRoute } from '../../http/route.ts';
import { deletePageRoutes } from './deletes.ts';
import { keyPageRoutes } from './keys.ts';
import { outboxPageRoutes } from './outbox.ts';
import { passwordPageRoutes } from './password.ts';
import { localTimePageRoutes } from './local-time.ts';
import { rewardPageRoutes } from './rewards.ts';
import { sessionPageRoutes } from './session.ts';
import { settingsPageRoutes } from './settings.ts';
import { tokenPageRoutes } from './tokens.ts';
import { webhookPageRoutes } from './webhooks.ts';
import { assetRoutes } from './assets.ts';
import { widgetPageRoutes } from './widgets.ts';
import { widgetEcardPageRoutes } from './widget-ecards.ts';
import { ecardEditorPageRoutes } from './ecard-editor.ts';
import { ecardListPageRoutes } from './ecards.ts';
import { previewPageRoutes } from './previews.ts';
import { brandPageRoutes } from './brands.ts';
import { sendTestPageRoutes } from './send-test.ts';
import { sendPageRoutes } from './send.ts';
import { sendLogPageRoutes } from './sends.ts';
import { campaignPageRoutes, campaignWizardRoutes } from './campaign-routes.ts';
import { automationPageRoutes } from './automations.ts';
import { directoryPageRoutes } from './directory.ts';
import { directoryImportPageRoutes } from './directory-import.ts';

export const consolePageRoutes: readonly AnyRoute[] = [
  ...sessionPageRoutes,
  ...keyPageRoutes,
  ...tokenPageRoutes,
  ...deletePageRoutes,
  ...webhookPageRoutes,
  ...rewardPageRoutes,
  ...settingsPageRoutes,
  ...outboxPageRoutes,
  ...passwordPageRoutes,
  ...localTimePageRoutes,
  ...assetRoutes,
  ...widgetPageRoutes,
  ...widgetEcardPageRoutes,
  // The list's fixed paths (/ecards/bulk) before the editor's /ecards/:id, which would take them for an id.
  ...ecardListPageRoutes,
  ...ecardEditorPageRoutes,
  ...previewPageRoutes,
  ...brandPageRoutes,
  ...sendTestPageRoutes,
  ...sendPageRoutes,
  // The log's /sends/export.csv before /sends/:id.
  ...sendLogPageRoutes,
  // The wizard's fixed path (/campaigns/new) before the campaign's page /campaigns/:id.
  ...campaignWizardRoutes,
  ...campaignPageRoutes,
  ...automationPageRoutes,
  // The import's fixed paths (/directory/import...) before the directory's pages, should one take a path for an id.
  ...directoryImportPageRoutes,
  ...directoryPageRoutes,
];
