<?php

declare(strict_types=1);

namespace Baas\Runtime;

/**
 * One page of a paged operation: its number, its items and the total when the answer says it.
 *
 * @template T
 */
final class Page
{
    /**
     * @param int $number the page number
     * @param list<T> $items the items
     * @param int|null $total the total over all pages, when said
     */
    public function __construct(
        public readonly int $number,
        public readonly array $items,
        public readonly ?int $total,
    ) {
    }
}
