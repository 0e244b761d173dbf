package com.baas.runtime;

import com.baas.signing.JsonValue;

/**
 * A successful call with what its envelope said.
 *
 * @param <R> the typed response
 * @param data the decoded {@code data}
 * @param requestId the requestId that was sent and echoed (verified)
 * @param rawData {@code data} as received (numbers as their literal text; {@code {}} when absent)
 * @param attempts the attempts the call made, the answered one included
 */
public record Success<R>(R data, String requestId, JsonValue rawData, int attempts) {
}
