import { makeCallRefusal } from '../../../src/services/calls/make-call-checks';

// Which of make-call's checks refuses a call (the statement that checks and stores:
// test/api/rest/make-call.test.ts, through the API's errors).

const passing = { agentUsable: true, versionFound: true, fromOwned: true, toSuppressed: false };

describe('makeCallRefusal', () => {
  it('refuses nothing when every check passes', () => {
    expect(makeCallRefusal(passing)).toBeNull();
  });

  it('names the one check that fails', () => {
    expect(makeCallRefusal({ ...passing, agentUsable: false })).toBe('agent');
    expect(makeCallRefusal({ ...passing, versionFound: false })).toBe('version');
    expect(makeCallRefusal({ ...passing, fromOwned: false })).toBe('from');
    expect(makeCallRefusal({ ...passing, toSuppressed: true })).toBe('suppressed');
  });

  it('names the agent first, then its version, then the number calling from, then the number called', () => {
    expect(makeCallRefusal({ agentUsable: false, versionFound: false, fromOwned: false, toSuppressed: true })).toBe('agent');
    expect(makeCallRefusal({ agentUsable: true, versionFound: false, fromOwned: false, toSuppressed: true })).toBe('version');
    expect(makeCallRefusal({ agentUsable: true, versionFound: true, fromOwned: false, toSuppressed: true })).toBe('from');
  });
});
