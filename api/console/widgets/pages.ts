// The console's widget pages: the list, create, copy, and a widget's tabs Customize, Preview & Share, Settings,
// Stats (the eCards tab is widget-ecards.ts), with the Customize tab's preview.
import type { AnyRoute } from '../../http/route.ts';
import { widgetCustomizeRoutes } from './customize.ts';
import { widgetListRoutes } from './list.ts';
import { widgetPreviewRoutes } from './preview.ts';
import { widgetSettingsRoutes } from './settings.ts';
import { widgetShareRoutes } from './share.ts';
import { widgetStatsRoutes } from './stats.ts';

export const widgetPageRoutes: AnyRoute[] = [...widgetListRoutes, ...widgetCustomizeRoutes, ...widgetPreviewRoutes, ...widgetShareRoutes, ...widgetSettingsRoutes, ...widgetStatsRoutes];
