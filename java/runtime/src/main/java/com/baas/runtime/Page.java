package com.baas.runtime;

import java.util.List;
import java.util.OptionalLong;

/**
 * One page of a paged operation.
 *
 * @param <I> the item type
 * @param number the page number
 * @param items its items
 * @param total the number of items over all pages, when the answer says it
 */
public record Page<I>(int number, List<I> items, OptionalLong total) {
    /**
     * A page.
     *
     * @param number the page number
     * @param items its items (copied)
     * @param total the total, or empty
     */
    public Page {
        items = List.copyOf(items);
    }
}
