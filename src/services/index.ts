import type { MikroORM } from '@mikro-orm/postgresql';
import type pg from 'pg';
import type { Config } from '../config';
import type { Logger } from '../logger';
import type { Metrics } from '../metrics';
import { AgentService } from './agents/agent.service';
import { ScenarioService } from './agent-tests/scenario.service';
import { TestRunService } from './agent-tests/test-run.service';
import { AgentVersionService } from './agents/agent-version.service';
import { AuthService } from './auth/auth.service';
import { CallLifecycleService } from './calls/call-lifecycle.service';
import { CallService } from './calls/call.service';
import { CampaignService } from './campaigns/campaign.service';
import { viewReads } from '../db/statements';
import { CampaignDialer } from './campaigns/campaign-dialer.service';
import type { RecordViews } from './campaigns/contact-mapping';
import type { Clock } from './shared/clock';
import { AnalyticsService } from './analytics/analytics.service';
import { ContactService } from './contacts/contact.service';
import { ConversationService } from './conversation/conversation.service';
import { SimulatedCallee } from './conversation/simulated-callee';
import { OpenAiCompatibleModel } from './conversation/language-model';
import { PlaygroundService } from './conversation/playground.service';
import { analyzable, PostCallAnalysisService } from './conversation/post-call-analysis.service';
import { DoNotCallService } from './do-not-call/do-not-call.service';
import type { EventBus } from './platform/events';
import { busExecutionEvents } from './flows/execution-events';
import { FlowEvents } from './flows/flow-outbox';
import { FlowRunner } from './flows/flow-runner';
import { OutboundHttp } from './flows/outbound-http';
import { StepExecutor } from './flows/step-executor';
import { IdempotencyService } from './platform/idempotency.service';
import { InboundCallService } from './calls/inbound/inbound-call.service';
import type { JobHandlers } from './platform/jobs/job-catalogue';
import type { JobQueue } from './platform/jobs/job-queue';
import { PhoneParser } from './shared/phone';
import { PhoneNumberService } from './phone-numbers/phone-number.service';
import { RateLimitService } from './platform/rate-limit.service';
import type { SecretBox } from './shared/secret-box';
import { SystemStateService } from './platform/system-state.service';
import { SimulatedTelephony } from './telephony/simulated.telephony';
import { RecordingService } from './calls/recordings/recording.service';
import { AnsweringMachineService } from './telephony/answering-machine.service';
import { RelayService } from './telephony/relay.service';
import { TransferService } from './telephony/transfer.service';
import type { TelephonyAdapter } from './telephony/telephony';
import { TwilioTelephony } from './telephony/twilio.telephony';
import { WebhookService } from './flows/flow.service';
import { WebhookExecutionService } from './flows/flow-execution.service';
import type { StatementListener } from '../db/orm';

export interface Infrastructure {
  orm: MikroORM;
  /** The pool of short statements beside the ORM's (src/db/side-pool.ts): rate-limit reservations. */
  sidePool: pg.Pool;
  jobs: JobQueue;
  clock: Clock;
  logger: Logger;
  /** This app's Prometheus metrics (the campaign dialer counts its dials there). */
  metrics: Metrics;
  /** Encrypts and decrypts the secrets kept in the database under SECRETS_KEY. */
  secrets: SecretBox;
  /** Where services publish their changes, after commit, for live subscribers on every replica (the conversations listen too). */
  events: EventBus;
  /** Records in their REST shapes, which the campaign webhook mapping reads (given by the REST layer). */
  views: RecordViews;
  /** Told the text of each statement the services run beside the ORM's (its hot reads), as the ORM's `onStatement` is. */
  onStatement?: StatementListener;
}

export type Services = ReturnType<typeof createServices>;

/**
 * The telephony provider named by TELEPHONY_PROVIDER, and the simulated one, which also
 * serves simulate-inbound on a Twilio deployment.
 */
function telephony(config: Config): { provider: TelephonyAdapter; simulated: SimulatedTelephony } {
  const { ringMs, talkMs, calleeTurns, calleeTimeoutMs } = config.simulated;
  const simulated = new SimulatedTelephony({ ringMs, talkMs }, config.llm && calleeTurns > 0 ? { timeoutMs: calleeTimeoutMs } : null);
  if (config.telephonyProvider === 'twilio' && config.twilio) {
    return {
      provider: new TwilioTelephony({ ...config.twilio, publicBaseUrl: config.publicBaseUrl, relayBaseUrl: config.llm ? config.publicBaseUrl : null, relayInfoEvents: config.relayInfoEvents }),
      simulated,
    };
  }
  return { provider: simulated, simulated };
}

/** Wires the services together; each gets only what it needs. `close()` releases their connections. */
export function createServices(config: Config, infra: Infrastructure) {
  const phones = new PhoneParser(config.defaultPhoneRegion);
  const outbound = new OutboundHttp(config.webhooks);
  const executor = new StepExecutor(outbound, infra.clock, config.webhooks.retryBackoffMs);
  const reads = viewReads(infra.orm, infra.sidePool, infra.onStatement);
  const agents = new AgentService(reads, infra.clock);
  const doNotCall = new DoNotCallService(phones, infra.clock);
  const { provider, simulated } = telephony(config);
  const phoneNumbers = new PhoneNumberService(phones, agents, provider);
  const flows = new FlowRunner({
    orm: infra.orm,
    reads,
    jobs: infra.jobs,
    clock: infra.clock,
    executor,
    events: busExecutionEvents(infra.events),
    logger: infra.logger,
    secrets: infra.secrets,
    localGraceS: config.jobRecovery.expiryS,
  });
  const flowEvents = new FlowEvents({ orm: infra.orm, jobs: infra.jobs, flows, views: infra.views, logger: infra.logger });
  const lifecycle = new CallLifecycleService(
    infra.orm,
    reads,
    infra.jobs,
    provider,
    simulated,
    infra.events,
    infra.clock,
    {
      prices: config.prices,
      maxConcurrentPerCompany: config.maxConcurrentCallsPerCompany,
      maxConcurrentInboundPerCompany: config.maxConcurrentInboundCallsPerCompany,
      maxCallDurationS: config.maxCallDurationS,
      sweepMs: config.callSweepMs,
    },
    infra.logger,
    flowEvents,
  );
  const executions = new WebhookExecutionService();
  const calls = new CallService(phones, lifecycle, { provider: provider.name, priceUnit: config.priceUnit }, reads, infra.clock);
  const model = config.llm ? new OpenAiCompatibleModel(config.llm, infra.logger) : null;
  const conversations = model ? new ConversationService(infra.orm, reads, model, infra.events, infra.logger, flows, config.prices, infra.clock) : null;
  conversations?.listen(infra.events);
  const recordings = new RecordingService(
    infra.orm,
    reads,
    provider,
    simulated,
    infra.events,
    infra.jobs,
    infra.clock,
    {
      publicBaseUrl: config.publicBaseUrl,
      retentionDays: config.recordingRetentionDays,
      prices: config.prices,
    },
    infra.logger,
  );
  lifecycle.onEnded((call) => recordings.callEnded(call));
  const analysis = model ? new PostCallAnalysisService(infra.jobs, model, infra.events, flowEvents, infra.clock, infra.logger, config.analysisDelayMs) : null;
  const dialer = new CampaignDialer(
    {
      orm: infra.orm,
      jobs: infra.jobs,
      calls,
      flows,
      events: infra.events,
      clock: infra.clock,
      logger: infra.logger,
      dials: infra.metrics.campaignDials,
      flowEvents,
      views: infra.views,
      willBeAnalyzed: (call) => analysis !== null && analyzable(call),
    },
    { selectionRefreshMs: config.campaigns.selectionRefreshMs, selectionSlices: config.campaigns.selectionSlices },
  );
  lifecycle.onEnded((call) => dialer.callEnded(call));
  if (analysis) {
    lifecycle.onEnding((tx, call) => analysis.callEnded(tx, call));
    analysis.onStored((tx, call) => dialer.callAnalyzed(tx, call));
  }
  const inbound = new InboundCallService(infra.orm, phones, lifecycle, provider, simulated, infra.views, { priceUnit: config.priceUnit });
  const rateLimits = new RateLimitService(config.rateLimits, config, { sidePool: infra.sidePool, redisUrl: config.redisUrl }, infra.logger);
  const relay = new RelayService(infra.orm, reads, provider, conversations, infra.events, config.publicBaseUrl, infra.logger);
  if (model && conversations && simulated.conversations) {
    lifecycle.useSimulatedCallee(new SimulatedCallee(model, conversations, { maxTurns: config.simulated.calleeTurns }, infra.logger));
  }
  return {
    auth: new AuthService(config.jwt, config.authTrustMs, infra.clock),
    agents,
    agentVersions: new AgentVersionService(),
    phoneNumbers,
    provider,
    simulated,
    lifecycle,
    inbound,
    calls,
    campaigns: new CampaignService(dialer, infra.clock, reads, { audienceCountLimit: config.campaigns.audienceCountLimit }),
    dialer,
    contacts: new ContactService(phones, reads, infra.clock),
    analytics: new AnalyticsService(),
    doNotCall,
    webhooks: new WebhookService(executions, infra.secrets, infra.clock),
    executions,
    systemState: new SystemStateService(),
    flows,
    flowEvents,
    idempotency: new IdempotencyService(),
    rateLimits,
    /** The language model (LLM_*), null when none is configured. */
    model,
    /** Opens a live call's conversation with its agent; null when no language model is configured. */
    conversations,
    relay,
    transfers: new TransferService(infra.orm, provider, relay, infra.logger),
    answeringMachines: new AnsweringMachineService(infra.orm, provider, infra.events, conversations !== null, infra.logger),
    recordings,
    /** Post-call analysis; null when no language model is configured. */
    analysis,
    playground: new PlaygroundService(agents, model, infra.orm, flows),
    /** Agent test scenarios (docs/agents.md, "Test suites"). */
    scenarios: new ScenarioService(agents),
    /** Agent test runs and call replays, as simulated calls; runs are refused without a language model. */
    testRuns: new TestRunService({ orm: infra.orm, agents, model, flows, jobs: infra.jobs, events: infra.events, clock: infra.clock, logger: infra.logger, concurrency: config.agentTestConcurrency }),
    close: async () => {
      await outbound.close();
      await rateLimits.close();
      await model?.close();
    },
  };
}

/** The service method behind each job of the catalogue (src/services/platform/jobs/job-catalogue.ts). */
export function jobHandlers(services: Services): JobHandlers {
  const { lifecycle, flows, flowEvents, dialer, analysis, recordings, testRuns, model } = services;
  return {
    'call.dispatch': (caller) => lifecycle.dispatch(caller),
    'call.place': (caller, { callId }) => lifecycle.place(caller, callId),
    'flow.step': (caller, job) => flows.runStep(caller, job),
    'flow.events': (caller) => flowEvents.deliver(caller),
    'campaign.tick': (caller, { campaignId }) => dialer.run(caller, campaignId),
    'call.analyze': analysis ? (caller, { callId }, attempt) => analysis.analyze(caller, callId, attempt) : null,
    'recording.delete': (caller, { callId }) => recordings.delete(caller, callId),
    'agent.test-run': model ? (caller, { runId }) => testRuns.run(caller, runId) : null,
  };
}
