import { Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/index.js';
import { CHECKOUT_ALIAS } from '../../config/index.js';
import type { CheckoutGateway, GatewayMode } from '../gateways/index.js';
import { OptionsService } from '../settings/index.js';
import {
  QUICK_SETUP_PROGRESS_STEP_IDS,
  QUICK_SETUP_STEP_IDS,
  type QuickSetupProgressStepDto,
  type QuickSetupProgressStepId,
  type QuickSetupStepDto,
  type QuickSetupStepId,
} from './dashboard.dto.js';

/** Site option: `{ skipped: true, skipped_at, skipped_by }` once an administrator skipped quick setup. */
export const QUICK_SETUP_SKIPPED_OPTION = `${CHECKOUT_ALIAS}_quick_setup_skipped`;

interface SkipRecord {
  skipped: true;
  skipped_at: string;
  skipped_by: number;
}

/** What the steps are computed from. */
export interface QuickSetupFacts {
  connected(gateway: CheckoutGateway, mode: GatewayMode): boolean;
  /** Any registered gateway connected in any mode */
  anyGatewayConnected: boolean;
  /** Existing forms imported from a bundled template or a layout */
  importedForms: number;
}

const STEP_RULES: Record<QuickSetupStepId, (facts: QuickSetupFacts) => boolean> = {
  connect_payment_gateway: (facts) => facts.anyGatewayConnected,
  connect_gateway_a_test_gateway: (facts) => facts.connected('gateway_a', 'test'),
  connect_gateway_a_live_gateway: (facts) => facts.connected('gateway_a', 'live'),
  select_template: (facts) => facts.importedForms > 0,
};

/** The four quick-setup steps of docs/interface.md, completed from the site's state; `0|1` as the interface writes them. */
export function quickSetupSteps(facts: QuickSetupFacts): QuickSetupStepDto[] {
  return QUICK_SETUP_STEP_IDS.map((id) => ({ id, is_complete: STEP_RULES[id](facts) ? 1 : 0 }));
}

/** What the console's quick setup (`quick_setup_progress`) is computed from. */
export interface QuickSetupProgressFacts {
  /** Gateways connected in test mode whose checkout is not paused there, each with its site mode now */
  testReady: Array<{ gateway: CheckoutGateway; mode: GatewayMode }>;
  newestFormId: number | null;
  newestPublishedFormId: number | null;
  newestCompletedTestPaymentId: number | null;
}

const PROGRESS_RULES: Record<QuickSetupProgressStepId, (facts: QuickSetupProgressFacts) => Omit<QuickSetupProgressStepDto, 'id'>> = {
  connect_test_mode: (facts) => ({ done: facts.testReady.length > 0, gateways: facts.testReady.map((ready) => ready.gateway), form_id: null, payment_id: null }),
  create_form: (facts) => ({ done: facts.newestFormId !== null, gateways: [], form_id: facts.newestFormId, payment_id: null }),
  publish_form: (facts) => ({ done: facts.newestPublishedFormId !== null, gateways: [], form_id: facts.newestPublishedFormId, payment_id: null }),
  make_test_payment: (facts) => ({
    done: facts.newestCompletedTestPaymentId !== null,
    // A gateway switched to live takes live payments on the hosted page: it is no way to a test payment.
    gateways: facts.testReady.filter((ready) => ready.mode === 'test').map((ready) => ready.gateway),
    form_id: facts.newestPublishedFormId,
    payment_id: facts.newestCompletedTestPaymentId,
  }),
};

/** The console's quick setup in order, up to a completed test payment (docs/administration.md). */
export function quickSetupProgress(facts: QuickSetupProgressFacts): QuickSetupProgressStepDto[] {
  return QUICK_SETUP_PROGRESS_STEP_IDS.map((id) => ({ id, ...PROGRESS_RULES[id](facts) }));
}

/** Whether quick setup was skipped for the site (one flag for every user). */
@Injectable()
export class QuickSetupService {
  constructor(private readonly options: OptionsService) {}

  async isSkipped(): Promise<boolean> {
    return (await this.options.get<SkipRecord | null>(QUICK_SETUP_SKIPPED_OPTION, null))?.skipped === true;
  }

  /** Idempotent: the first skip's time and user are kept. */
  async skip(user: AuthenticatedUser): Promise<void> {
    await this.options.change<SkipRecord | null>(QUICK_SETUP_SKIPPED_OPTION, null, (current) =>
      current?.skipped ? current : { skipped: true, skipped_at: new Date().toISOString(), skipped_by: user.id },
    );
  }
}
