// The embed contract (web/lib/embed.ts): the URL options of "?embed" and the postMessage messages, each bad
// value an error naming its parameter or field.
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_EMBED_OPTIONS, embedSearch, envelope, parseEmbedEvent, parseEmbedOptions, parseHostMessage,
} from '../../web/lib/embed';

describe('parseEmbedOptions', () => {
  it('reads nothing without "embed"', () => {
    expect(parseEmbedOptions('?step=3&speed=fast')).toEqual({ options: DEFAULT_EMBED_OPTIONS, errors: [] });
  });

  it('reads every option', () => {
    const { options, errors } = parseEmbedOptions('?embed=fixed&step=4&autoplay&speed=0.5&views=minkowski,shapes');
    expect(errors).toEqual([]);
    expect(options).toEqual({ embed: true, locked: true, step: 4, autoplay: true, speed: 0.5, views: ['minkowski', 'shapes'], predict: false });
    expect(parseEmbedOptions('?embed&locked&step=last').options).toMatchObject({ locked: true, step: 'last' });
    expect(parseEmbedOptions('?embed&locked=false&autoplay=true').options).toMatchObject({ locked: false, autoplay: true });
    expect(parseEmbedOptions('?embed&predict').options).toMatchObject({ predict: true });
    expect(parseEmbedOptions('?embed&predict=false').options).toMatchObject({ predict: false });
    expect(parseEmbedOptions('?embed&predict=maybe').errors).toEqual(['predict: expected no value, "true" or "false", got "maybe"']);
  });

  it('names each bad or unknown parameter and keeps that option at its default', () => {
    const { options, errors } = parseEmbedOptions('?embed=yes&step=-1&speed=9&views=shapes,shapes&autoplay=1&colour=red&speed=2');
    expect(errors).toEqual([
      'embed: expected no value or "fixed", got "yes"',
      'step: expected a whole number ≥ 0 (the first step is 0) or "last", got "-1"',
      'speed: expected a number from 0.25 to 8 (1 = one step every 0.9 s), got "9"',
      'views: the view "shapes" is listed twice',
      'autoplay: expected no value, "true" or "false", got "1"',
      'unknown parameter "colour" (an embed takes embed, locked, step, autoplay, speed, views, predict)',
      'speed: given more than once',
    ]);
    expect(options).toEqual({ ...DEFAULT_EMBED_OPTIONS, embed: true });
    for (const [q, re] of [['?embed&speed=', /^speed: /], ['?embed&speed=NaN', /^speed: /], ['?embed&speed=1e0', /^speed: /],
      ['?embed&step=1.5', /^step: /], ['?embed&views=', /^views: .*got nothing/], ['?embed&views=hull', /^views: unknown view "hull"/],
      ['?embed&step=%E2%80%AE', /^step: .*"\?"/]] as const) {
      expect(parseEmbedOptions(q).errors, q).toEqual([expect.stringMatching(re)]);
    }
  });

  it('embedSearch writes what parseEmbedOptions reads', () => {
    const opts = { locked: true, step: 'last' as const, autoplay: true, speed: 2, views: ['shapes' as const], predict: true };
    const text = embedSearch(opts);
    expect(text).toBe('embed=fixed&step=last&autoplay&speed=2&views=shapes&predict');
    expect(parseEmbedOptions(text)).toEqual({ options: { embed: true, ...opts }, errors: [] });
    expect(embedSearch({})).toBe('embed');
  });
});

describe('parseHostMessage', () => {
  const m = (body: object) => ({ source: 'collidoscope', version: 1, ...body });

  it('reads each message type', () => {
    expect(parseHostMessage(m({ type: 'goto', step: 3 }))).toEqual({ type: 'goto', step: 3 });
    expect(parseHostMessage(m({ type: 'goto', step: 'last' }))).toEqual({ type: 'goto', step: 'last' });
    expect(parseHostMessage(m({ type: 'play' }))).toEqual({ type: 'play' });
    expect(parseHostMessage(m({ type: 'pause' }))).toEqual({ type: 'pause' });
    expect(parseHostMessage(m({ type: 'speed', value: 0.25 }))).toEqual({ type: 'speed', value: 0.25 });
    expect(parseHostMessage(m({ type: 'load', scene: '#v1=e30' }))).toEqual({ type: 'load', scene: '#v1=e30' });
    expect(parseHostMessage(m({ type: 'load', scene: { version: 1 } }))).toEqual({ type: 'load', scene: { version: 1 } });
  });

  it('ignores what is not a collidoscope message', () => {
    for (const d of [null, 'play', 42, [], { type: 'play' }, { source: 'other', version: 1, type: 'play' }]) {
      expect(parseHostMessage(d)).toBeNull();
    }
  });

  it('names what is wrong in one of ours', () => {
    const cases: [object, string][] = [
      [{ source: 'collidoscope', type: 'play' }, 'version: this page speaks version 1 of the collidoscope messages, got undefined'],
      [m({ type: 'stop' }), 'type: unknown message type "stop" (the types are load, goto, play, pause, speed)'],
      [m({ type: 7 }), 'type: unknown message type 7 (the types are load, goto, play, pause, speed)'],
      [m({ type: 'goto', step: 1.5 }), 'step: expected a whole number ≥ 0 (the first step is 0) or "last", got 1.5'],
      [m({ type: 'goto', step: '2' }), 'step: expected a whole number ≥ 0 (the first step is 0) or "last", got the string "2"'],
      [m({ type: 'goto' }), 'step: expected a whole number ≥ 0 (the first step is 0) or "last", got undefined'],
      [m({ type: 'speed', value: Number.NaN }), 'value: expected a play speed from 0.25 to 8, got NaN'],
      [m({ type: 'load', scene: null }), 'scene: expected a scene object, its JSON text or a permalink, got null'],
      [m({ type: 'load', scene: [1] }), 'scene: expected a scene object, its JSON text or a permalink, got an array'],
      [m({ type: 'play', step: 1 }), '"step": unknown field in a "play" message'],
    ];
    for (const [msg, text] of cases) expect(() => parseHostMessage(msg)).toThrow(text);
  });
});

describe('events', () => {
  it('envelope and parseEmbedEvent agree; other data is not an event', () => {
    const step = envelope({ type: 'step' as const, step: 2, frames: 5, caption: 'c' });
    expect(step).toEqual({ source: 'collidoscope', version: 1, type: 'step', step: 2, frames: 5, caption: 'c' });
    expect(parseEmbedEvent(step)).toEqual({ type: 'step', step: 2, frames: 5, caption: 'c' });
    expect(parseEmbedEvent(envelope({ type: 'ready', frames: 3 }))).toEqual({ type: 'ready', frames: 3 });
    expect(parseEmbedEvent(envelope({ type: 'error', message: 'm' }))).toEqual({ type: 'error', message: 'm' });
    expect(parseEmbedEvent({ ...step, version: 2 })).toBeNull();
    expect(parseEmbedEvent({ ...step, frames: '5' })).toBeNull();
    expect(parseEmbedEvent({ type: 'ready', frames: 3 })).toBeNull();
  });
});
