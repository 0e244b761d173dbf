<?php

declare(strict_types=1);

namespace Baas\Runtime;

use Baas\Runtime\Exception\ApiError;
use Baas\Runtime\Exception\BaasException;
use Baas\Runtime\Exception\DecodeError;
use Baas\Runtime\Exception\OutcomeUnknown;
use Baas\Runtime\Exception\WaitDeadline;
use Baas\Runtime\Transport\HttpRequest;
use Baas\Runtime\Transport\Transport;
use Baas\Runtime\Transport\Transports;

/**
 * Runs any generated {@see Request}: validate → sign the exact bytes → send → verify the answer
 * (signed, of an answer's kind, echoing the requestId) → decode. The generated `Client` wraps it
 * with a method per operation.
 *
 * Retries: a retryable failure (a transport failure, a timeout, a gateway status 502-504, or a
 * result code the spec marks retryable, given as data by generated code) is tried again with a
 * new requestId, salt and timestamp, up to `maxRetries` times with doubling backoff; but a call
 * that moves money, or one whose requestId the caller fixed, is sent again only when the failed
 * attempt provably never left. A call that moves money and fails without a verified answer after
 * its bytes may have left throws {@see OutcomeUnknown}, which nothing retries.
 */
final class RuntimeClient
{
    /** The longest wait between two attempts, in seconds. */
    public const MAX_BACKOFF = 10.0;

    private readonly Transport $transport;

    /** @var array<string, true> */
    private readonly array $retryable;

    /** @var \Closure(float): void */
    private readonly \Closure $sleep;

    /**
     * @param Config $config the configuration (checked here)
     * @param Transport|null $transport the transport, or null for {@see Transports::default()}
     * @param list<string> $retryableCodes the result codes the spec marks retryable
     * @param (\Closure(float): void)|null $sleep how to wait (seconds); tests give their own
     * @throws Exception\ConfigError when the configuration cannot work
     */
    public function __construct(
        public readonly Config $config,
        ?Transport $transport = null,
        array $retryableCodes = [],
        ?\Closure $sleep = null,
    ) {
        $config->check();
        $this->transport = $transport ?? Transports::default();
        $this->retryable = array_fill_keys($retryableCodes, true);
        $this->sleep = $sleep ?? static function (float $seconds): void {
            usleep((int) round($seconds * 1e6));
        };
    }

    /**
     * The typed answer of a successful call.
     *
     * @template T
     * @param Request<T> $request the request
     * @param CallOptions|null $options per-call options
     * @return T the answer
     * @throws BaasException every failure, naming the call and its outcome
     */
    public function execute(Request $request, ?CallOptions $options = null): mixed
    {
        return $this->executeWith($request, $options)->data;
    }

    /**
     * {@see execute()}, returning the success with its requestId, raw data and attempts.
     *
     * @template T
     * @param Request<T> $request the request
     * @param CallOptions|null $options per-call options
     * @return Success<T> the success
     * @throws BaasException every failure, naming the call and its outcome
     */
    public function executeWith(Request $request, ?CallOptions $options = null): Success
    {
        $options ??= new CallOptions();
        $info = $request::operation();
        $started = microtime(true);
        try {
            $v = new Validator();
            $request->validate($v, FieldPath::root());
            try {
                $v->finish();
            } catch (BaasException $e) {
                throw $e->inCall($info->name, $options->requestId, 0);
            }
            $maxRetries = $options->maxRetries ?? $this->config->maxRetries;
            for ($attempt = 0;; $attempt++) {
                $requestId = null;
                try {
                    $signed = Envelope::signRequest($request->toWire(), $this->config->sender, $this->config->locale, $this->config->privateKey, $options->requestId);
                    $requestId = $signed->requestId;
                    $response = $this->transport->send(new HttpRequest(
                        $this->config->url($info->path),
                        $signed->body,
                        $options->timeout ?? $this->config->requestTimeout,
                        $this->config->connectTimeout,
                        $this->config->maxResponseBytes,
                    ));
                    if (in_array($response->status, [502, 503, 504], true)) {
                        throw new DecodeError('a gateway answered instead of the service', $response->status, $this->config->privateKey->redact($response->body));
                    }
                    $data = Envelope::openAnswer($response->status, $response->body, $this->config->privateKey, $signed->requestId, $this->config->acceptUnsignedSuccess);
                    try {
                        $typed = $request->decodeResponse($data);
                    } catch (DecodeError $e) {
                        throw new DecodeError('cannot decode `data`: ' . $e->detail(), $response->status);
                    }
                    $success = new Success($typed, $signed->requestId, $data, $attempt + 1);
                    $this->log($request, $started, null, $success);
                    return $success;
                } catch (BaasException $e) {
                    if ($e instanceof ApiError) {
                        $e = $e->withRetryable(isset($this->retryable[$e->resultCode]));
                    }
                    $mayResend = !($info->movesMoney || $options->requestId !== null) || !$e->mayHaveReachedService();
                    if ($attempt >= $maxRetries || !$e->isRetryable() || !$mayResend) {
                        $unknown = $info->movesMoney && $requestId !== null && $e->mayHaveReachedService()
                            && !($e instanceof ApiError && $e->verified);
                        throw ($unknown ? new OutcomeUnknown($e) : $e)->inCall($info->name, $requestId, $attempt + 1);
                    }
                    ($this->sleep)(min($this->config->retryBackoff * (2 ** min($attempt, 16)), self::MAX_BACKOFF));
                }
            }
        } catch (BaasException $e) {
            $this->log($request, $started, $e, null);
            throw $e;
        }
    }

    /**
     * Every page of a paged operation, from the request's page on, fetched as they are read. It
     * stops after an empty page, a page shorter than the page size, or once the total is reached.
     *
     * @template R
     * @template I
     * @param PagedRequest<R, I> $request the first page's request
     * @return \Generator<int, Page<I>> the pages
     * @throws BaasException a failure of a page's call ends it
     */
    public function pages(PagedRequest $request): \Generator
    {
        $seen = 0;
        $next = $request;
        while ($next !== null) {
            $current = $next;
            $response = $this->execute($current);
            $items = $current->pageItems($response);
            $total = $current->pageTotal($response);
            $seen += count($items);
            $size = $current->pageSize();
            $last = $items === [] || ($size !== null && count($items) < $size) || ($total !== null && $seen >= $total);
            $next = $last ? null : $current->withPage($current->page() + 1);
            yield new Page($current->page(), $items, $total);
        }
    }

    /**
     * Every item of every page, in order (see {@see pages()}).
     *
     * @template R
     * @template I
     * @param PagedRequest<R, I> $request the first page's request
     * @return \Generator<int, I> the items
     * @throws BaasException a failure of a page's call ends it
     */
    public function items(PagedRequest $request): \Generator
    {
        foreach ($this->pages($request) as $page) {
            yield from $page->items;
        }
    }

    /**
     * Sends `$query` until `$state` of its answer is one of `$finals`, waiting as `$policy`
     * says; {@see WaitDeadline} when the deadline passes first. A retryable failure of one query
     * is polled past.
     *
     * @template T
     * @param Request<T> $query the status query
     * @param callable(T, mixed): (string|null) $state the state of an answer (its wire value),
     *     given the answer and its `data` as received
     * @param list<string> $finals the final states' wire values
     * @param WaitPolicy|null $policy how to poll, or null for the default
     * @return T the answer in a final state
     * @throws BaasException a failure that is not retryable, or {@see WaitDeadline}
     */
    public function waitUntil(Request $query, callable $state, array $finals, ?WaitPolicy $policy = null): mixed
    {
        $policy ??= new WaitPolicy();
        $info = $query::operation();
        $started = microtime(true);
        $delay = $policy->firstDelay;
        $lastState = null;
        $lastRequestId = null;
        for ($queries = 1;; $queries++) {
            try {
                $success = $this->executeWith($query);
                $now = $state($success->data, $success->rawData);
                if ($now !== null && in_array($now, $finals, true)) {
                    return $success->data;
                }
                [$lastState, $lastRequestId] = [$now, $success->requestId];
            } catch (BaasException $e) {
                if (!$e->isRetryable() || $info->movesMoney) {
                    throw $e;
                }
            }
            $elapsed = microtime(true) - $started;
            if ($elapsed + $delay > $policy->deadline) {
                throw (new WaitDeadline($lastState, $elapsed))->inCall($info->name, $lastRequestId, $queries);
            }
            ($this->sleep)($delay);
            $delay = min($delay * 2, $policy->maxDelay);
        }
    }

    /**
     * Sends `$query` (a status query with an application's business id) once and reads its
     * state ({@see Settlement}). Never throws a {@see BaasException}: a failed lookup is
     * {@see Settlement\StillUnknown}. The generated pending applications' `settle()` call it.
     *
     * @template T
     * @param Request<T> $query the status query
     * @param callable(T): mixed $state the state of an answer (an enum case, an
     *     {@see UnknownValue}, a scalar, or null when it carries none)
     * @param list<string> $awaitingOtp the states in which the application still waits for its OTP
     * @param list<string> $finals the final states' wire values
     * @param string $otpRule when the OTP may be sent again (the spec's words)
     * @return Settlement<mixed> what the lookup says
     */
    public function settle(Request $query, callable $state, array $awaitingOtp, array $finals, string $otpRule): Settlement
    {
        try {
            $success = $this->executeWith($query);
        } catch (BaasException $e) {
            return new Settlement\StillUnknown($e);
        }
        return self::readSettlement($state($success->data), $awaitingOtp, $finals, $otpRule, $success, $query::operation()->name);
    }

    /**
     * The settlement a successful lookup's state says.
     *
     * @param mixed $state the state in the answer (null when it carries none)
     * @param list<string> $awaitingOtp the states in which the application still waits for its OTP
     * @param list<string> $finals the final states
     * @param string $otpRule when the OTP may be sent again (the spec's words)
     * @param Success<mixed> $success the lookup, for the error
     * @param string $operation the query's name, for the error
     * @return Settlement<mixed> the settlement
     */
    private static function readSettlement(mixed $state, array $awaitingOtp, array $finals, string $otpRule, Success $success, string $operation): Settlement
    {
        $unknown = static function (string $why) use ($success, $operation): Settlement\StillUnknown {
            $error = (new DecodeError($why . ", so the confirmation's outcome is still unknown"))
                ->inCall($operation, $success->requestId, $success->attempts);
            return new Settlement\StillUnknown($error);
        };
        if ($state === null) {
            return $unknown('the answer carries no state');
        }
        if ($state instanceof UnknownValue) {
            return $unknown('the answer\'s state ' . $state . ' is not one this SDK lists');
        }
        $text = match (true) {
            $state instanceof \BackedEnum => (string) $state->value,
            is_scalar($state) || $state instanceof \Stringable => (string) $state,
            default => null,
        };
        if ($text === null) {
            return $unknown('the answer\'s state is not a value');
        }
        if (in_array($text, $awaitingOtp, true)) {
            return new Settlement\NotConfirmed($state, $otpRule);
        }
        return new Settlement\Confirmed($state, in_array($text, $finals, true));
    }

    /**
     * What `var_dump` shows: the configuration (the key redacted) and the transport's class.
     *
     * @return array<string, mixed> the client
     */
    public function __debugInfo(): array
    {
        return ['config' => $this->config, 'transport' => $this->transport::class];
    }

    /**
     * @param Request<mixed> $request
     * @param Success<mixed>|null $success
     */
    private function log(Request $request, float $started, ?BaasException $error, ?Success $success): void
    {
        $logger = $this->config->logger;
        if ($logger === null) {
            return;
        }
        $info = $request::operation();
        $context = [
            'rpc.method' => $info->name,
            'url.path' => $info->path,
            'baas.moves_money' => $info->movesMoney,
            'duration_ms' => (int) round((microtime(true) - $started) * 1000),
            'baas.outcome' => $error !== null ? $error->outcome()->value : 'success',
            'baas.code' => $error?->apiCode(),
            'baas.request_id' => $error !== null ? $error->requestId() : $success?->requestId,
            'baas.attempts' => $error !== null ? $error->attempts() : $success?->attempts,
        ];
        if ($this->config->logParams) {
            try {
                $context['baas.params'] = Json::encode($request->toWire());
            } catch (BaasException) {
                // What cannot be encoded was never sent, and is not logged either.
            }
        }
        $context = array_filter($context, static fn (mixed $v): bool => $v !== null);
        $text = [];
        foreach ($context as $k => $v) {
            $text[] = $k . '=' . (is_bool($v) ? ($v ? 'true' : 'false') : (string) $v);
        }
        $logger->debug('baas.call ' . implode(' ', $text), $context);
    }
}
