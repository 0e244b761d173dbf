<?php

declare(strict_types=1);

namespace Baas\Runtime;

/**
 * A request of an operation whose results come in pages (generated where the spec says so).
 *
 * @template TResponse the typed answer of one page
 * @template TItem an item of a page
 * @extends Request<TResponse>
 */
interface PagedRequest extends Request
{
    /**
     * The page this request asks for.
     *
     * @return int the page number
     */
    public function page(): int;

    /**
     * This request for another page.
     *
     * @param int $page the page number
     * @return static the request
     */
    public function withPage(int $page): static;

    /**
     * The page size asked for, or null when the service's default applies.
     *
     * @return int|null the size
     */
    public function pageSize(): ?int;

    /**
     * The items of a page.
     *
     * @param TResponse $response the page's answer
     * @return list<TItem> its items
     */
    public function pageItems(mixed $response): array;

    /**
     * The total of items over all pages, when the answer says it.
     *
     * @param TResponse $response the page's answer
     * @return int|null the total
     */
    public function pageTotal(mixed $response): ?int;
}
