import { EVENT_RULES, EVENT_SOURCE } from '../../src/events/events';
import { matchesPattern } from '../../src/events/pattern';

// Examples from the Amazon EventBridge user guide, "Content filtering in event patterns".
const ec2Event = {
  version: '0',
  id: '6a7e8feb-b491-4cf7-a9f1-bf3703467718',
  'detail-type': 'EC2 Instance State-change Notification',
  source: 'aws.ec2',
  account: '111122223333',
  time: '2017-12-22T18:43:48Z',
  region: 'us-west-1',
  resources: ['arn:aws:ec2:us-west-1:123456789012:instance/i-1234567890abcdef0'],
  detail: { 'instance-id': 'i-1234567890abcdef0', state: 'terminated', 'c-count': 5, 'd-count': 3, 'x-limit': 301.8 },
};

describe('EventBridge pattern matcher', () => {
  it('matches exact values, any of a list, and nested fields', () => {
    expect(matchesPattern({ source: ['aws.ec2'] }, ec2Event)).toBe(true);
    expect(matchesPattern({ source: ['aws.s3', 'aws.ec2'], detail: { state: ['terminated'] } }, ec2Event)).toBe(true);
    expect(matchesPattern({ detail: { state: ['running'] } }, ec2Event)).toBe(false);
    expect(matchesPattern({ detail: { 'c-count': [5] } }, ec2Event)).toBe(true);
  });

  it('matches prefixes', () => {
    expect(matchesPattern({ region: [{ prefix: 'us-' }] }, ec2Event)).toBe(true);
    expect(matchesPattern({ region: [{ prefix: 'eu-' }] }, ec2Event)).toBe(false);
  });

  it('matches anything-but values, lists and prefixes', () => {
    expect(matchesPattern({ detail: { state: [{ 'anything-but': 'initializing' }] } }, ec2Event)).toBe(true);
    expect(matchesPattern({ detail: { state: [{ 'anything-but': ['stopped', 'terminated'] }] } }, ec2Event)).toBe(false);
    expect(matchesPattern({ detail: { state: [{ 'anything-but': { prefix: 'init' } }] } }, ec2Event)).toBe(true);
    expect(matchesPattern({ detail: { 'c-count': [{ 'anything-but': 5 }] } }, ec2Event)).toBe(false);
  });

  it('matches exists true and false', () => {
    expect(matchesPattern({ detail: { state: [{ exists: true }] } }, ec2Event)).toBe(true);
    expect(matchesPattern({ detail: { missing: [{ exists: false }] } }, ec2Event)).toBe(true);
    expect(matchesPattern({ detail: { missing: [{ exists: true }] } }, ec2Event)).toBe(false);
  });

  it('matches array values when any element matches', () => {
    expect(matchesPattern({ resources: [{ prefix: 'arn:aws:ec2:' }] }, ec2Event)).toBe(true);
  });

  it('routes our three events to webhook dispatch and nothing else', () => {
    const [rule] = EVENT_RULES;
    for (const type of ['DocumentUploaded', 'VerificationFinished', 'VerificationCanceled']) {
      expect(matchesPattern(rule!.pattern, { source: EVENT_SOURCE, 'detail-type': type, detail: {} })).toBe(true);
    }
    expect(matchesPattern(rule!.pattern, { source: EVENT_SOURCE, 'detail-type': 'Other', detail: {} })).toBe(false);
    expect(matchesPattern(rule!.pattern, { source: 'other', 'detail-type': 'DocumentUploaded' })).toBe(false);
  });
});
