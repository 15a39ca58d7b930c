import type { MikroORM } from '@mikro-orm/postgresql';
import { Call } from '../../../entities';
import type { Logger } from '../../../logger';
import type { Transitioned } from '../call-transitions';
import type { Clock } from '../../shared/clock';
import { NotFoundError } from '../../shared/errors';
import type { EventPublisher } from '../../platform/events';
import type { JobQueue } from '../../platform/jobs/job-queue';
import type { Caller } from '../../shared/scope';
import type { RecordingMedia, TelephonyAdapter } from '../../telephony/telephony';
import { signedTwilioCall } from '../../telephony/twilio-callback';
import type { CallPrices } from '../call-cost';
import type { ViewReads } from '../../../db/statements';
import { keepRecording, keepRecordingIfRecorded } from './recording.store';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Most expired recordings one pass of the sweep queues for deletion. */
const SWEEP_LIMIT = 500;

export interface RecordingOptions {
  /** PUBLIC_BASE_URL: a call's `record_url` is ours, under it. */
  publicBaseUrl: string;
  /** RECORDING_RETENTION_DAYS; null keeps recordings. */
  retentionDays: number | null;
  /** A recording kept prices the call again (calls/call-cost.ts). */
  prices: CallPrices;
}

/**
 * Call recordings (docs/calls.md, "Recording"): the provider records, we keep its recording's
 * id and serve the audio at our own URL, to the call's company only, fetching it from the
 * provider with the platform's credentials; past the retention, a job deletes it at the
 * provider and clears `record_url`.
 */
export class RecordingService {
  constructor(
    private readonly orm: MikroORM,
    private readonly reads: ViewReads,
    private readonly provider: TelephonyAdapter,
    /** The simulated provider: `provider` itself, or beside Twilio for simulate-inbound. */
    private readonly simulated: TelephonyAdapter,
    private readonly events: EventPublisher,
    private readonly jobs: JobQueue,
    private readonly clock: Clock,
    private readonly options: RecordingOptions,
    private readonly logger: Logger,
  ) {}

  /** Twilio's `RecordingStatusCallback`, signed like any Twilio callback: a completed recording is kept. */
  async receiveTwilio(url: string, params: Record<string, string>, signature: string): Promise<void> {
    const em = this.orm.em.fork();
    const { call } = await signedTwilioCall(this.provider, em, url, params, signature);
    if (params.RecordingStatus !== 'completed' || !params.RecordingSid) {
      this.logger.warn({ callId: call.id, status: params.RecordingStatus, error: params.ErrorCode }, 'recording not kept');
      return;
    }
    await this.keep(call, params.RecordingSid);
  }

  /** A simulated call ended answered: its agent's recording, when it records, is kept (the audio is made when asked for). */
  async callEnded(ended: Transitioned): Promise<void> {
    if (ended.status !== 'completed') return;
    const recording = { sid: `simulated-${ended.id}`, url: this.recordUrl(ended.id), at: this.clock.now() };
    if (!(await keepRecordingIfRecorded(this.reads, ended, this.simulated.name, recording, this.options.prices))) return;
    await this.events.publish('call.updated', { companyId: ended.companyId, callId: ended.id, campaignId: ended.campaignId, workspace: ended.workspace });
  }

  private recordUrl(callId: string): string {
    return `${this.options.publicBaseUrl}/v1/calls/${callId}/recording`;
  }

  private async keep(call: Pick<Call, 'id' | 'company' | 'campaign' | 'workspaceId'>, recordingSid: string): Promise<void> {
    const recording = { sid: recordingSid, url: this.recordUrl(call.id), at: this.clock.now() };
    await keepRecording(this.orm.em.fork(), { id: call.id, companyId: call.company.id }, recording, this.options.prices);
    await this.events.publish('call.updated', { companyId: call.company.id, callId: call.id, campaignId: call.campaign?.id ?? null, workspace: call.workspaceId });
  }

  /**
   * The audio of a call of the caller's company (`range`: the client's `Range` header);
   * NotFound for a call without a recording, unknown, or another company's.
   */
  async media({ scope, em }: Caller, callId: string, range: string | undefined): Promise<RecordingMedia> {
    if (!UUID.test(callId)) throw new NotFoundError('Recording');
    const call = await em.findOne(Call, { id: callId, company: scope.companyId, deletedAt: null }, { fields: ['recordingSid', 'callProvider', 'callDuration'] });
    if (!call?.recordingSid) throw new NotFoundError('Recording');
    return this.providerOf(call).recording(call.recordingSid, range, { durationS: call.callDuration });
  }

  /** Queues the deletion of every recording past the retention (a named sweep across companies, docs/scaling.md). */
  async sweep(): Promise<void> {
    const cutoff = this.cutoff();
    if (!cutoff) return;
    const expired = await this.orm.em
      .fork()
      .find(Call, { recordingSid: { $ne: null }, recordingAt: { $lt: cutoff } }, { fields: ['id', 'company'], limit: SWEEP_LIMIT, comments: ['sweep:calls.recordings'] });
    for (const call of expired) await this.jobs.send('recording.delete', { companyId: call.company.id, callId: call.id }, { singletonKey: call.id });
  }

  /** Job handler: deletes an expired recording at its provider, then clears it from the call. Idempotent. */
  async delete({ scope, em }: Caller, callId: string): Promise<void> {
    const cutoff = this.cutoff();
    const call = await em.findOne(Call, { id: callId, company: scope.companyId }, { fields: ['recordingSid', 'recordingAt', 'callProvider', 'campaign', 'workspaceId', 'company'] });
    if (!cutoff || !call?.recordingSid || !call.recordingAt || call.recordingAt >= cutoff) return;
    await this.providerOf(call).deleteRecording(call.recordingSid);
    await em.nativeUpdate(Call, { id: call.id, company: scope.companyId, recordingSid: call.recordingSid }, { recordingSid: null, recordingAt: null, recordUrl: null });
    await this.events.publish('call.updated', { companyId: scope.companyId, callId: call.id, campaignId: call.campaign?.id ?? null, workspace: call.workspaceId });
  }

  private cutoff(): Date | null {
    const days = this.options.retentionDays;
    return days === null ? null : new Date(this.clock.now().getTime() - days * 86_400_000);
  }

  private providerOf(call: Pick<Call, 'callProvider'>): TelephonyAdapter {
    return call.callProvider === this.simulated.name ? this.simulated : this.provider;
  }
}
