<?php

declare(strict_types=1);

/*
 * The baas-sign command: its output and exit codes, the key never printed. Run in this
 * process (BaasSign::run), and a few times as bin/baas-sign in a child process. Argument:
 * the vectors file.
 */

namespace Baas\Signing\Tests;

use Baas\Signing\BaasSign;

require_once __DIR__ . '/support/Checks.php';

const EXAMPLE = '{"requestId":"APPREQ00990320fed02000","sender":"client1","locale":"en_KE",'
    . '"timestamp":1650533105687,"salt":"QcEwsZ123da","params":{"name":"Tester"}}';
const SIGNATURE = 'ce4f419f667b7d5621892337c23905b894472e6b186f06a0e237528b011ab2f2';
const CANONICAL = 'locale=en_KE&params.name=Tester&requestId=APPREQ00990320fed02000'
    . '&salt=QcEwsZ123da&sender=client1&senderKey=[redacted]&timestamp=1650533105687';

/**
 * One run in this process.
 *
 * @param list<string> $args
 * @return array{code: int, out: string, err: string}
 */
function run(?string $key, string $body, array $args = []): array
{
    $env = $key === null ? [] : [BaasSign::KEY_VARIABLE => $key];
    $in = fopen('php://memory', 'w+b');
    fwrite($in, $body);
    rewind($in);
    $out = fopen('php://memory', 'w+b');
    $err = fopen('php://memory', 'w+b');
    $code = BaasSign::run($args, $in, $out, $err, $env);
    rewind($out);
    rewind($err);
    return ['code' => $code, 'out' => (string) stream_get_contents($out), 'err' => (string) stream_get_contents($err)];
}

/** @param array{code: int, out: string, err: string} $r */
function shows(array $r, string $secret): bool
{
    return str_contains($r['out'], $secret) || str_contains($r['err'], $secret);
}

/** @param array{code: int, out: string, err: string} $r */
function describe(array $r): string
{
    return 'exit ' . $r['code'] . ', stdout <' . $r['out'] . '>, stderr <' . $r['err'] . '>';
}

$c = new Checks('BaasSignTest');
$empty = run('', EXAMPLE . "\n");
$c->check('an empty key is no key: exit 2, naming the variable', $empty['code'] === 2
    && str_contains($empty['err'], BaasSign::KEY_VARIABLE), describe($empty));
$sign = run('yourkey', EXAMPLE . "\n");
$c->equal("sign: the README's example", CANONICAL . "\n" . SIGNATURE . "\n", $sign['out']);
$c->equal('sign: exit 0', 0, $sign['code']);
$attach = run('yourkey', EXAMPLE . "\n", ['--attach']);
$signed = substr(EXAMPLE, 0, -1) . ',"signature":"' . SIGNATURE . '"}';
$c->equal('attach: the body to send', $signed . "\n", $attach['out']);
$c->equal('attach: exit 0', 0, $attach['code']);
$verify = run('yourkey', $attach['out'], ['--verify']);
$c->equal('verify: signature OK', 'signature OK: ' . SIGNATURE . "\n", $verify['out']);
$c->equal('verify: exit 0', 0, $verify['code']);
$wrong = run('otherkey', $attach['out'], ['--verify']);
$c->check('verify with another key: exit 1, MISMATCH, both signatures, the canonical string', $wrong['code'] === 1
    && str_contains($wrong['err'], 'signature MISMATCH') && str_contains($wrong['err'], 'received: ' . SIGNATURE)
    && str_contains($wrong['err'], 'expected: ') && str_contains($wrong['err'], 'senderKey=[redacted]')
    && !shows($wrong, 'otherkey'), describe($wrong));
$missing = run('yourkey', EXAMPLE, ['--verify']);
$c->check('verify without a signature: exit 1, MISSING', $missing['code'] === 1
    && str_contains($missing['err'], 'signature MISSING') && str_contains($missing['err'], 'expected: ' . SIGNATURE), describe($missing));
$again = run('yourkey', $attach['out'], ['--attach']);
$c->check('attach of a signed body: exit 2', $again['code'] === 2 && str_contains($again['err'], 'already has a `signature`'), describe($again));
$help = run(null, '', ['--help']);
$c->check('--help: exit 0, usage', $help['code'] === 0 && str_starts_with($help['out'], 'usage: baas-sign')
    && str_contains($help['out'], '--attach') && str_contains($help['out'], '--verify'), describe($help));
$c->equal('-h', $help, run(null, '', ['-h']));
$version = run(null, '', ['--version']);
$c->check('--version: exit 0', $version['code'] === 0 && $version['out'] === 'baas-sign ' . BaasSign::VERSION . "\n", describe($version));
$c->equal('-V', $version, run(null, '', ['-V']));
$usage = run('k', EXAMPLE, ['--verify', '--attach']);
$c->check('a usage error names the problem', $usage['err'] === "usage: baas-sign [-h] [-V] [--verify | --attach]\n"
    . "baas-sign: error: argument --attach: not allowed with argument --verify\n", describe($usage));

$exits = [
    [[], 'not json', 'k', 2],
    [[], '{"a":1,"a":2}', 'k', 2],
    [[], EXAMPLE, null, 2],
    [[], EXAMPLE, '', 2],
    [['--verify'], EXAMPLE, '', 2],
    [['--verify', '--attach'], EXAMPLE, 'k', 2],
    [['--attach', '--verify'], EXAMPLE, 'k', 2],
    [['--bogus'], EXAMPLE, 'k', 2],
    [['x'], EXAMPLE, 'k', 2],
    [['--attach'], '{"note":"yourkey"}', 'yourkey', 2],
    [['--attach'], '{"note":"\u0079ourkey"}', 'yourkey', 2],
    [['--attach'], '{"yourkey":1}', 'yourkey', 2],
    [[], '{"senderKey":"yourkey"}', 'yourkey', 2],
    [['--verify'], '{"senderKey":"yourkey"}', 'yourkey', 1],
    [[], '{"a":null}', 'k', 0],
    [['--attach'], '{"a":null}', 'k', 0],
    [[], '{"a":[1,null]}', 'k', 2],
    [['--attach'], '{"a":[1,null]}', 'k', 2],
    [['--verify'], '{"a":null}', 'k', 1],
    [['--verify'], '{"a":[1,null]}', 'k', 1],
    [['--verify'], '{"a":1,"signature":7}', 'k', 2],
    [['--verify'], "{\"a\":\"\xff\"}", 'k', 2],
    [['--verify'], '{"a":' . str_repeat('[', 70) . str_repeat(']', 70) . '}', 'k', 2],
    [[], '{"note":"yourkey"}', 'yourkey', 0],
    [[], '{}', '', 2],
    [[], '{}', 'k', 0],
    [['--attach'], '{}', 'k', 0],
];
foreach ($exits as [$args, $body, $key, $code]) {
    $r = run($key, $body, $args);
    $name = "exit $code for " . implode(' ', $args) . ' ' . $body . ' (key ' . var_export($key, true) . ')';
    $c->equal($name, $code, $r['code']);
    if ($key !== null && $key !== '') {
        $c->check("$name: the key is not printed", !shows($r, $key), describe($r));
    }
}
$warned = run('yourkey', '{"senderKey":"yourkey"}');
$c->check('a top-level senderKey draws the warning', str_contains($warned['err'], 'warning: the input has a top-level `senderKey`')
    && str_contains($warned['err'], 'not signed: refused by rule R4'), describe($warned));
$invalid = run('k', "{\"a\":\"\xff\"}");
$c->check('invalid UTF-8: exit 2', $invalid['code'] === 2 && str_contains($invalid['err'], 'not valid UTF-8 (byte 6)'), describe($invalid));
$noted = run('yourkey', '{"note":"yourkey"}');
$c->check('the key in a value is redacted in the canonical string', str_contains($noted['out'], 'note=[redacted]&senderKey=[redacted]'),
    describe($noted));

$vectors = Checks::vectors($argv);
foreach (Checks::section($vectors, 'signing') as $v) {
    $name = 'signing "' . $v->getString('name') . '"';
    $r = run($v->getString('key'), $v->getString('body'));
    $c->check("$name: sign prints the signature last", $r['code'] === 0 && str_ends_with($r['out'], $v->getString('signature') . "\n"), describe($r));
    $c->check("$name: the key is not printed", !shows($r, $v->getString('key')), describe($r));
    $attached = run($v->getString('key'), $v->getString('body'), ['--attach']);
    $c->equal("$name: attach then verify", 0, run($v->getString('key'), $attached['out'], ['--verify'])['code']);
}
foreach (Checks::section($vectors, 'refusals') as $v) {
    $name = 'refusal "' . $v->getString('name') . '"';
    $key = $v->getString('key');
    $r = run($key, $v->getString('body'), ['--verify']);
    $c->check("$name: --verify exits 1 naming the rule", $r['code'] === 1 && str_contains($r['err'], 'REFUSED: refused by rule '
        . $v->getString('rule') . ' at `' . $v->getString('path') . '`'), describe($r));
    $c->check("$name: the key is not printed", !shows($r, $key), describe($r));
    $c->equal("$name: sign exits 2", 2, run($key, $v->getString('unsigned'))['code']);
    $c->equal("$name: attach exits 2", 2, run($key, $v->getString('unsigned'), ['--attach'])['code']);
}
foreach (Checks::section($vectors, 'received_nulls') as $v) {
    $name = 'received_nulls "' . $v->getString('name') . '"';
    $key = $v->getString('key');
    $verified = run($key, $v->getString('body'), ['--verify']);
    $c->check("$name: --verify exits 0, no warning", $verified['code'] === 0 && $verified['err'] === '', describe($verified));
    $signature = \Baas\Signing\Canonical::parse($v->getString('body'))->signature();
    // The document skips null members: the body signs, one warning line per skipped member.
    $warnings = array_map(fn ($path) => 'baas-sign: warning: `' . $path . '` is null: left out of the signature, as the '
        . 'document skips null values (a member absent or null reads the same; better leave it out)' . "\n", (array) $v->get('skipped'));
    $r = run($key, $v->getString('unsigned'));
    $c->check("$name: sign exits 0 with the body's signature", $r['code'] === 0 && str_ends_with($r['out'], "\n" . $signature . "\n"), describe($r));
    $c->equal("$name: sign warns once per skipped member", implode('', $warnings), $r['err']);
    $r = run($key, $v->getString('unsigned'), ['--attach']);
    $c->check("$name: attach exits 0 with the body", $r['code'] === 0 && $r['out'] === $v->getString('body') . "\n", describe($r));
    $c->equal("$name: attach warns once per skipped member", implode('', $warnings), $r['err']);
    $r = run($key, str_replace(':null', ':[null]', $v->getString('unsigned')));
    $c->check("$name: a null array element: sign exits 2 naming R2", $r['code'] === 2
        && str_contains($r['err'], 'rule R2 at `' . $v->getString('path') . '[0]`'), describe($r));
}

// bin/baas-sign itself, in a child process: the environment, stdin, exit codes.
/** @return array{code: int, out: string, err: string} */
function command(?string $key, string $body, array $args = []): array
{
    $env = getenv();
    unset($env[BaasSign::KEY_VARIABLE]);
    if ($key !== null) {
        $env[BaasSign::KEY_VARIABLE] = $key;
    }
    $cmd = array_merge([PHP_BINARY, dirname(__DIR__) . '/bin/baas-sign'], $args);
    $p = proc_open($cmd, [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes, null, $env);
    fwrite($pipes[0], $body);
    fclose($pipes[0]);
    $out = (string) stream_get_contents($pipes[1]);
    $err = (string) stream_get_contents($pipes[2]);
    fclose($pipes[1]);
    fclose($pipes[2]);
    return ['code' => proc_close($p), 'out' => $out, 'err' => $err];
}
$r = command('yourkey', EXAMPLE . "\n");
$c->check('bin/baas-sign: the example', $r['code'] === 0 && $r['out'] === CANONICAL . "\n" . SIGNATURE . "\n", describe($r));
$r = command('yourkey', $signed, ['--verify']);
$c->check('bin/baas-sign --verify: exit 0', $r['code'] === 0 && $r['out'] === 'signature OK: ' . SIGNATURE . "\n", describe($r));
$r = command('otherkey', $signed, ['--verify']);
$c->check('bin/baas-sign --verify, another key: exit 1', $r['code'] === 1 && !shows($r, 'otherkey'), describe($r));
$r = command('yourkey', '{"a":1,"b":{"c":null},"d":null}');
$c->check('bin/baas-sign, null members: exit 0, signed as without them, one stderr line each', $r['code'] === 0
    && str_ends_with($r['out'], "\n" . \Baas\Signing\Signer::sign('{"a":1}', new \Baas\Signing\PrivateKey('yourkey')) . "\n")
    && substr_count($r['err'], "\n") === 2 && str_contains($r['err'], '`b.c` is null') && str_contains($r['err'], '`d` is null'), describe($r));
$c->equal('bin/baas-sign without the key: exit 2', 2, command(null, EXAMPLE)['code']);
$c->equal('bin/baas-sign with an empty key: exit 2', 2, command('', EXAMPLE)['code']);
$c->equal('bin/baas-sign --bogus: exit 2', 2, command('k', EXAMPLE, ['--bogus'])['code']);

exit($c->finish());
