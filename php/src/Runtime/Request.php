<?php

declare(strict_types=1);

namespace Baas\Runtime;

use Baas\Runtime\Exception\DecodeError;

/**
 * What generated code implements for each operation: the request's parameters, with the
 * operation's {@see OperationInfo}, its rules, its wire form and how its answer is read. The
 * runtime does the rest ({@see RuntimeClient::execute()}: validate, sign the exact bytes, send,
 * verify the answer bound to its requestId, decode).
 *
 * @template TResponse the typed answer
 */
interface Request
{
    /**
     * The operation's name, path and whether it moves money.
     *
     * @return OperationInfo the operation
     */
    public static function operation(): OperationInfo;

    /**
     * Records every rule of the spec the parameters break (generated calls to the
     * {@see Validator}'s methods, at `$at`).
     *
     * @param Validator $v the validator
     * @param FieldPath $at the path of the params (root)
     */
    public function validate(Validator $v, FieldPath $at): void;

    /**
     * The `params` object to send.
     *
     * @return WireObject the params
     */
    public function toWire(): WireObject;

    /**
     * The answer's `data` as the typed answer.
     *
     * @param mixed $data `data` as the lossless reader gives it (`JsonObject`, lists, strings,
     *     `JsonNumber`, booleans; an empty `JsonObject` when absent)
     * @return TResponse the answer
     * @throws DecodeError when it cannot be read
     */
    public function decodeResponse(mixed $data): mixed;
}
