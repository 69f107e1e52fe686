import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { environmentLine, quoteExecArgument, serviceUnitText } from '../../src/cli/service-unit.js';
import { execStartWords } from '../helpers/systemd-exec.js';

const program = ['/usr/bin/node', '/opt/packdesk/dist/bin/packdesk.js'];

describe('the systemd unit of packdesk service install', () => {
  it('runs the daemon of this packdesk at boot, as the given user, with its data directory and port', () => {
    expect(serviceUnitText({ scope: 'system', program, dataDir: '/var/lib/packdesk', port: 7420, user: 'packdesk' })).toBe([
      '# Written by `packdesk service install`; `packdesk service uninstall` removes it.',
      '[Unit]',
      'Description=packdesk shipping station',
      'Wants=network-online.target',
      'After=network-online.target',
      '',
      '[Service]',
      'User=packdesk',
      'ExecStart=/usr/bin/node /opt/packdesk/dist/bin/packdesk.js daemon --data-dir /var/lib/packdesk --port 7420',
      'Restart=on-failure',
      'KillSignal=SIGTERM',
      '',
      '[Install]',
      'WantedBy=multi-user.target',
      '',
    ].join('\n'));
  });

  it('runs as root without a User= line, and passes files roots and retention on to the daemon', () => {
    const text = serviceUnitText({
      scope: 'system', program: ['/usr/local/bin/packdesk'], dataDir: '/var/lib/packdesk', port: 8080,
      filesRoots: ['/srv/erp-drop', '/srv/labels'], retentionDays: 10,
    });
    expect(text).not.toMatch(/^User=/m);
    expect(text).toContain('\nExecStart=/usr/local/bin/packdesk daemon --data-dir /var/lib/packdesk --port 8080 '
      + '--files-root /srv/erp-drop --files-root /srv/labels --retention-days 10\n');
  });

  it("makes a user unit for the user's own manager: started with the session, no User=, no system targets", () => {
    const text = serviceUnitText({ scope: 'user', program, dataDir: '/home/jana/.local/share/packdesk', port: 7420, user: 'jana' });
    expect(text).toContain('\nWantedBy=default.target\n');
    expect(text).not.toContain('multi-user.target');
    expect(text).not.toContain('network-online.target');
    expect(text).not.toMatch(/^User=/m);
    expect(text).toContain('\nExecStart=/usr/bin/node /opt/packdesk/dist/bin/packdesk.js daemon --data-dir /home/jana/.local/share/packdesk --port 7420\n');
  });

  it('reads the environment from a file, and writes its values as systemd reads them back in double quotes', () => {
    const text = serviceUnitText({ scope: 'system', program, dataDir: '/var/lib/packdesk', port: 7420, station: 'returns', environmentFile: '/etc/packdesk/packdesk.env' });
    expect(text).toContain('\nEnvironmentFile=/etc/packdesk/packdesk.env\nExecStart=/usr/bin/node /opt/packdesk/dist/bin/packdesk.js daemon --data-dir /var/lib/packdesk --port 7420 --station returns\n');
    expect(environmentLine('PACKDESK_DATABASE_URL', 'postgres://u:p"a\\s$s`@h/db')).toBe('PACKDESK_DATABASE_URL="postgres://u:p\\"a\\\\s\\$s\\`@h/db"');
  });

  it('quotes ExecStart words the way systemd reads them: spaces, quotes, backslashes, $ and % survive', () => {
    expect(quoteExecArgument('/home/jana/My Stations/data')).toBe('"/home/jana/My Stations/data"');
    expect(quoteExecArgument('/srv/$HOME')).toBe('"/srv/$$HOME"');
    expect(quoteExecArgument('/srv/100%')).toBe('"/srv/100%%"');
    expect(quoteExecArgument('/srv/a"b\\c')).toBe('"/srv/a\\"b\\\\c"');
    expect(quoteExecArgument("/srv/it's")).toBe('"/srv/it\'s"');
    expect(quoteExecArgument('/srv/tab\there')).toBe('"/srv/tab\\there"');
    expect(quoteExecArgument('')).toBe('""');
    const text = serviceUnitText({ scope: 'user', program: ['/opt/pack desk/node', '/opt/pack desk/packdesk.js'], dataDir: '/home/jana/My $tations/100%', port: 7420 });
    const execStart = /^ExecStart=(.*)$/m.exec(text)![1]!;
    expect(execStartWords(execStart)).toEqual(['/opt/pack desk/node', '/opt/pack desk/packdesk.js', 'daemon', '--data-dir', '/home/jana/My $tations/100%', '--port', '7420']);
  });

  it('reads back every path as it was given, whatever characters it holds', () => {
    // any text a path may hold (no NUL), with the characters systemd treats specially weighted in
    const tricky = fc.constantFrom(' ', '"', "'", '\\', '$', '%', '\n', '\t', ';', '{', '}', '*', '\x01', 'é');
    const path = fc.array(fc.oneof(fc.string({ minLength: 1 }).filter((s) => !s.includes('\0')), tricky), { maxLength: 8 }).map((parts) => `/${parts.join('')}`);
    fc.assert(fc.property(path, fc.array(path, { maxLength: 3 }), (dataDir, filesRoots) => {
      const text = serviceUnitText({ scope: 'system', program, dataDir, port: 7420, filesRoots });
      const lines = text.split('\n');
      // a path never breaks the unit into further lines
      expect(lines.filter((line) => line.startsWith('ExecStart='))).toHaveLength(1);
      const execStart = lines.find((line) => line.startsWith('ExecStart='))!.slice('ExecStart='.length);
      expect(execStartWords(execStart)).toEqual([...program, 'daemon', '--data-dir', dataDir, '--port', '7420', ...filesRoots.flatMap((dir) => ['--files-root', dir])]);
    }), { numRuns: 300 });
  });
});
