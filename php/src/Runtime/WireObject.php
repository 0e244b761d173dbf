<?php

declare(strict_types=1);

namespace Baas\Runtime;

/**
 * A JSON object to send, members in order; written `{}` when empty (a PHP `[]` would be written
 * `[]`). A `null` member is left out: a null is never sent. Generated code builds the params of
 * every request and every sent record as one.
 */
final class WireObject
{
    /**
     * @param array<string, mixed> $members the members, by wire name
     */
    public function __construct(public readonly array $members = [])
    {
    }
}
