<?php

declare(strict_types=1);

/*
 * The shared vectors of answers bound to their request (`answers`: a mismatched requestId
 * echo, a notification or a request given as an answer, a success altered or unsigned) and
 * of the one `notificationType` rule (`notification_types`: a JSON string, any number
 * refused). Argument: the vectors file (default: the shared tests/data/signing-vectors.json).
 */

namespace Baas\Signing\Tests;

use Baas\Signing\JsonNumber;
use Baas\Signing\JsonObject;
use Baas\Signing\NotificationException;
use Baas\Signing\NotificationVerifier;
use Baas\Signing\PrivateKey;
use Baas\Signing\Signer;
use Baas\Signing\VerifyException;

require_once __DIR__ . '/support/Checks.php';

$c = new Checks('AnswerVectorsTest');
$vectors = Checks::vectors($argv);
$answers = Checks::section($vectors, 'answers');
$types = Checks::section($vectors, 'notification_types');
$c->check('the vectors are there', count($answers) >= 13 && count($types) >= 9,
    count($answers) . ' answers, ' . count($types) . ' notification_types');

/** What Signer::verifyAnswer did, in the vectors' words. */
function outcome(string $body, string $requestId, PrivateKey $key): string
{
    try {
        $answer = Signer::verifyAnswer($body, $requestId, $key);
        return $answer->success() ? 'success' : 'failure ' . $answer->code . ' verified=' . ($answer->verified ? 'true' : 'false');
    } catch (VerifyException $e) {
        return 'refused ' . match ($e->kind()) {
            VerifyException::MISSING => 'signature_missing',
            VerifyException::MISMATCH => 'signature_invalid',
            default => $e->kind(),
        };
    }
}

foreach ($answers as $v) {
    $expect = $v->get('expect');
    assert($expect instanceof JsonObject);
    $expected = match ($expect->getString('outcome')) {
        'success' => 'success',
        'failure' => 'failure ' . $expect->getString('code') . ' verified=' . ($expect->get('verified') ? 'true' : 'false'),
        default => 'refused ' . $expect->getString('refusal'),
    };
    $key = new PrivateKey((string) $v->getString('key'));
    $c->equal('answers "' . $v->getString('name') . '"', $expected,
        outcome((string) $v->getString('body'), (string) $v->getString('request_id'), $key));
}

foreach ($types as $v) {
    $expect = $v->get('expect');
    $now = $v->get('now_ms');
    assert($expect instanceof JsonObject && $now instanceof JsonNumber);
    $verifier = new NotificationVerifier(new PrivateKey((string) $v->getString('key')), (string) $v->getString('service_sender'));
    try {
        $got = 'accepted ' . $verifier->verify((string) $v->getString('body'), (int) $now->literal)->notificationType;
    } catch (NotificationException $e) {
        $got = 'refused';
    }
    $expected = $expect->getString('outcome') === 'accepted' ? 'accepted ' . $expect->getString('notification_type') : 'refused';
    $c->equal('notification_types "' . $v->getString('name') . '"', $expected, $got);
}

exit($c->finish());
