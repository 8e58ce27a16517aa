// The message line's rules (www/messages.js), without a browser: each cause says one message,
// each distinct text is said once, and a message goes when its cause does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MessageLine, errorText, partsLeftOut, refusedLink } from '../../www/messages.js';

const TWO = 'need at least two points to fit a model';

test('each distinct text is said once, the kept ones before the state’s', () => {
  const line = new MessageLine();
  assert.equal(line.text(), '');
  assert.equal(line.text([TWO]), TWO);
  line.set('action', TWO);
  assert.equal(line.text([TWO]), TWO, 'not "… — …" twice');
  line.set('file', 'bad.csv: line 3: y \'oops\' is not a number');
  assert.equal(line.text([TWO, ' ', null]), `bad.csv: line 3: y 'oops' is not a number — ${TWO}`);
  line.set('link', 'This link opened, leaving out …');
  assert.equal(line.text([]).split(' — ')[0], 'This link opened, leaving out …', 'the link first');
});

test('a cause says one message, replaced or cleared', () => {
  const line = new MessageLine();
  line.set('file', 'a.csv: line 2: bad');
  line.set('file', 'b.csv: line 9: bad');
  assert.equal(line.text(), 'b.csv: line 9: bad');
  line.set('file', null);
  assert.equal(line.text(), '');
  line.set('notice', 'Link copied');
  line.set('action', 'C <= 0');
  line.clear('notice');
  assert.equal(line.text(), 'C <= 0');
  assert.throws(() => line.set('weather', 'rain'), /unknown cause/);
});

test('a new scene takes every kept message with it', () => {
  const line = new MessageLine();
  for (const cause of ['link', 'file', 'action', 'notice']) line.set(cause, `${cause} said`);
  line.sceneChanged();
  assert.equal(line.text(), '');
  assert.equal(line.get('link'), null);
  assert.equal(line.text([TWO]), TWO, 'what the state says stays');
});

test('what a link and an error say', () => {
  assert.equal(refusedLink('its C is damaged: C <= 0', true),
    'This link could not be opened: its C is damaged: C <= 0; the scene on screen is unchanged.');
  assert.equal(refusedLink('it is from a newer version of the lab', false),
    'This link could not be opened: it is from a newer version of the lab; the default scene is shown instead.');
  assert.equal(partsLeftOut([]), null);
  assert.equal(partsLeftOut(["'a' is not known", "'b' is not known"]),
    "This link opened, leaving out what this lab does not read: 'a' is not known; 'b' is not known.");
  assert.equal(errorText('C <= 0'), 'C <= 0');
  assert.equal(errorText(new Error('two\nlines')), 'Something went wrong: two lines');
});
