/**
 * Values in a filter_tools request read as the kind of value they are (ranking/values.ts):
 * a URL, an e-mail address, a date, a time, a time zone, coordinates, an IP address, a version,
 * an identifier. Split into words they were names and numbers that matched nothing or the
 * wrong tool.
 */
import { expect } from 'chai';
import { typedValues } from '../../plugins/meta-tools/ranking/values.js';
import { queryWords } from '../../plugins/meta-tools/ranking/words.js';
import { expectEachFloodWithin } from '../support/floods.js';
import { firstRanked, toolCorpus } from '../support/tool-corpus.js';

describe('filter_tools: values in a request read as their kind', () => {
  it('reads a URL as "url" and its host\'s name, not its scheme, path and query', () => {
    expect(queryWords('Transcript of https://www.youtube.com/watch?v=dQw4w9WgXcQ please')).to.deep.equal(['transcript', 'url', 'youtube']);
    expect(queryWords('get https://blog.example.org/2026/05/release-notes as markdown')).to.deep.equal(['get', 'url', 'blog', 'example', 'markdown']);
    expect(queryWords('open http://localhost:3000/login')).to.deep.equal(['navigate', 'url', 'localhost']);
    expect(queryWords('fetch http://10.0.0.7:8080/health')).to.deep.equal(['fetch', 'url', 'address']);
    // A site named without its scheme is a URL too; a file name or an address is not.
    expect(queryWords('crawl docs.python.org/3/library for asyncio')).to.deep.equal(['crawl', 'url', 'docs', 'python', 'asyncio']);
    expect(queryWords('the status page of github.com')).to.deep.equal(['status', 'page', 'url', 'github']);
    expect(queryWords('read notes.txt and mail jane@acme.com')).to.deep.equal(['read', 'file', 'txt', 'mail', 'email', 'address']);
  });

  it('reads an e-mail address as one, but not an SSH remote', () => {
    expect(queryWords('send bob.smith@contoso.com the invoice')).to.deep.equal(['send', 'email', 'address', 'invoice']);
    expect(queryWords('clone git@github.com:acme/api.git')).to.include.members(['clone', 'github']).and.not.include('email');
  });

  it('reads an address an event is with, or an invite goes to, as an attendee, not a mail to write', () => {
    expect(queryWords('Schedule a meeting with alice@example.com next Tuesday')).to.deep.equal(['schedule', 'meeting', 'attendee', 'next', 'tuesday']);
    expect(queryWords('invite bob@acme.io to the review')).to.deep.equal(['invite', 'attendee', 'review']);
    expect(queryWords('forward the invite to bob@acme.io')).to.include.members(['email', 'address']);
  });

  it('reads dates, months of a year, times and time zones', () => {
    expect(queryWords('block 2026-12-03 from 09:00 to 11:00')).to.deep.equal(['block', 'date', 'time', 'time']);
    expect(queryWords('how long ago was March 3rd 2021')).to.deep.equal(['long', 'ago', 'was', 'date']);
    expect(queryWords('due 12/15/2026 or on 3 March')).to.deep.equal(['due', 'date', 'date']);
    expect(queryWords('how many days are in February 2028')).to.deep.equal(['count', 'days', 'month']);
    expect(queryWords('send it tomorrow at 8am')).to.deep.equal(['send', 'tomorrow', 'time']);
    expect(queryWords("what's 17:45 CET in Europe/Berlin")).to.deep.equal(['time', 'timezone', 'timezone']);
    // A time as somebody's clock reads it is converted between time zones; a local time is read now.
    expect(queryWords('9am their time, and I am in Chicago')).to.deep.equal(['time', 'timezone', 'convert', 'chicago']);
    expect(queryWords('the local time in Osaka')).to.deep.equal(['time', 'timezone', 'osaka']);
    expect(queryWords('take my time')).to.deep.equal(['take', 'time']);
    // A day said as a possessive says which one; alone it stays.
    expect(queryWords("what did we decide in last week's planning meeting")).to.deep.equal(['search', 'notes', 'planning', 'meeting']);
    expect(queryWords("add today's action items")).to.deep.equal(['add', 'action', 'items']);
    expect(queryWords("Thursday's design review")).to.deep.equal(['design', 'review']);
    // A spreadsheet's cells by their address are a range of a sheet.
    expect(queryWords('highlight negative numbers in red in column D')).to.include.members(['range', 'cell', 'sheet']).and.not.include('column');
    expect(queryWords('sum A1:C20')).to.include.members(['range', 'cell', 'sheet']);
    // How long is a duration, not a request about weeks.
    expect(queryWords('an apartment in Kyoto for two weeks')).to.include('duration').and.not.include('weeks');
    expect(queryWords('which files in the build folder are larger than 100 MB')).to.include('size').and.not.include('mb');
    expect(queryWords('a 2.5GB dump')).to.include('size');
    expect(queryWords('what a month-long apartment costs')).to.include('duration').and.not.include('month');
    expect(queryWords("find customers who haven't ordered in 90 days")).to.include('duration').and.not.include('days');
    expect(queryWords('how many days are in February')).to.include('days');
    expect(queryWords('what week is it')).to.include('week');
    expect(queryWords('the column chart')).to.include('column');
    expect(queryWords('what did I finish last week')).to.include('week');
    // A time said with a possessive is the appointment then.
    expect(queryWords('cancel our 10:30 tomorrow')).to.deep.equal(['cancel', 'meeting', 'event', 'tomorrow']);
    expect(queryWords('move my 3pm with the design team to Thursday')).to.deep.equal(['reschedule', 'meeting', 'event', 'thursday']);
    expect(queryWords("what's the dial-in link for my 11 o'clock")).to.deep.equal(['meeting', 'event', 'conference', 'meeting', 'event']);
    expect(queryWords("wake me at 7 o'clock")).to.include('time');
    // Lower-case abbreviations are words; a bare number is no time.
    expect(queryWords('the best est of 8')).to.deep.equal(['best', 'est', '8']);
  });

  it('reads coordinates, IP addresses, versions and identifiers; words with digits stay words', () => {
    expect(queryWords('what is at 40.7484, -73.9857')).to.deep.equal(['coordinates', 'latitude', 'longitude']);
    // (Asking whether it is up asks for its health: idioms/work.ts.)
    expect(queryWords('is 192.168.1.20 up')).to.deep.equal(['ip', 'address', 'up', 'health', 'status', 'ping']);
    expect(queryWords('releases since v2.14.0')).to.deep.equal(['releases', 'since', 'version']);
    // A full stop after a value ends the sentence; a fifth number is no IP address.
    expect(queryWords('Check out the tag v3.2.1.')).to.deep.equal(['checkout', 'tag', 'version']);
    expect(queryWords('ping 10.0.0.1.')).to.deep.equal(['ping', 'ip', 'address']);
    expect(queryWords('1.2.3.4.5')).to.deep.equal(['1', '2', '3', '4', '5']);
    expect(queryWords('show commit 3f9a2c1 and user U024BE7LH')).to.deep.equal(['show', 'commit', 'id', 'user', 'id']);
    expect(queryWords('encode as base64 with sha256')).to.deep.equal(['encode', 'base', '64', 'sha', '256']);
    // A generated suffix is an identifier; a numeronym is a word.
    expect(queryWords('delete the pod web-7f9c')).to.deep.equal(['delete', 'pod', 'web', 'id']);
    expect(queryWords('i18n and a11y checks')).to.deep.equal(['18', 'n', '11', 'y', 'checks']);
  });

  it('reads a SQL statement as a SQL query too, keeping its names', () => {
    expect(queryWords('Run SELECT count(*) FROM orders on the Postgres db')).to.deep.equal([
      'run',
      'select',
      'count',
      'orders',
      'postgres',
      'db',
      'sql',
      'query',
    ]);
    expect(queryWords('INSERT INTO tags VALUES (1)')).to.include.members(['sql', 'query']);
    expect(queryWords('select * from invoices limit 5')).to.include.members(['sql', 'query']);
    expect(queryWords('select the best photo from the album')).to.not.include('sql');
  });

  it("ranks by the value's kind: a time zone converts, coordinates reverse-geocode, a URL of YouTube transcribes", () => {
    const catalogue = toolCorpus([
      ['x_time_convert_time', 'Convert a time between time zones.', 'time'],
      ['x_time_current_time', 'The current time in a time zone.', 'time'],
      ['x_calendar_list_events', 'List calendar events between two times.', 'calendar'],
      ['x_maps_reverse_geocode', 'The address at latitude and longitude coordinates.', 'maps'],
      ['x_maps_geocode', 'The coordinates of an address.', 'maps'],
      ['x_youtube_get_transcript', 'The transcript of a YouTube video.', 'youtube'],
      ['x_web_fetch', 'Fetch a URL and return its text.', 'web'],
      ['x_stats_numbers', 'Statistics of numbers such as 40.7 and 73.9.', 'stats'],
    ]);
    const first = firstRanked(catalogue);
    expect(first("what's 17:45 CET in Los Angeles")).to.equal('x_time_convert_time');
    expect(first('what is at 40.7484, -73.9857')).to.equal('x_maps_reverse_geocode');
    expect(first('transcript of https://www.youtube.com/watch?v=dQw4w9WgXcQ')).to.equal('x_youtube_get_transcript');
  });

  it('reads 100,000 characters shaped like values in linear time (each pattern starts only where a value can)', () => {
    const floods = [
      'a@' + 'b.'.repeat(50_000) + ':',
      'a@'.repeat(50_000),
      'a.'.repeat(50_000) + 'com',
      'a.com.'.repeat(20_000),
      'SELECT '.repeat(14_000) + 'FROM',
      'UPDATE '.repeat(14_000) + 'SET',
      '1.'.repeat(50_000),
      '1'.repeat(100_000) + '.5,',
      'https://' + ':1'.repeat(50_000),
      'v1.2.3-' + 'a.'.repeat(50_000) + '!',
      'Europe/' + 'a'.repeat(100_000) + '1',
      'a1'.repeat(50_000),
      '12:'.repeat(33_000),
      'March '.repeat(16_000) + '3',
      '9am their '.repeat(10_000) + 'time',
      'local '.repeat(16_000) + 'time',
      'with '.repeat(20_000) + 'a@b.c',
      'invite a@'.repeat(11_000),
      'my '.repeat(33_000) + '3pm',
      'our 1'.repeat(20_000),
      'column '.repeat(14_000) + 'D',
      'A1:'.repeat(33_000) + 'B2',
      'cell '.repeat(20_000) + 'B7',
      'for two '.repeat(12_000) + 'weeks',
      'last '.repeat(20_000) + "week's",
      'this week '.repeat(10_000) + "'s",
      "my 11 o'".repeat(11_000) + 'clock',
      '1.5 '.repeat(25_000) + 'MB',
      '1'.repeat(100_000) + ' GB',
      'month-'.repeat(16_000) + 'long',
      'in the last '.repeat(8_000) + '30 days',
    ];
    expectEachFloodWithin(floods, 500, (text) => {
      typedValues(text);
      queryWords(text);
    });
  });
});
