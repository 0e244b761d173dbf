package com.baas.runtime;

import com.baas.signing.PrivateKey;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Locale;

/**
 * Everything a client needs: the service's base URL, your sender name and private key, and
 * the settings with defaults. Immutable; {@link #toString()} never shows the key.
 * <pre>{@code
 * Config config = Config.builder("https://baas.example.com", "your-sender", key)
 *         .requestTimeout(Duration.ofSeconds(20))
 *         .build();
 * }</pre>
 */
public final class Config {
    /** The locale sent in every envelope by default. */
    public static final String DEFAULT_LOCALE = "en_KE";
    /** Time to establish a connection by default. */
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);
    /** Time for a whole exchange by default. */
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(30);
    /** Largest answer body accepted by default: 8 MiB. */
    public static final long DEFAULT_MAX_RESPONSE_BYTES = 8L * 1024 * 1024;
    /** Automatic retries of a retryable failure by default. */
    public static final int DEFAULT_MAX_RETRIES = 2;
    /** Wait before the first retry by default (doubled for each next one, at most 10 s). */
    public static final Duration DEFAULT_RETRY_BACKOFF = Duration.ofMillis(200);

    private final String baseUrl;
    private final String sender;
    private final PrivateKey privateKey;
    private final String locale;
    private final Duration connectTimeout;
    private final Duration requestTimeout;
    private final long maxResponseBytes;
    private final int maxRetries;
    private final Duration retryBackoff;
    private final boolean acceptUnsignedSuccess;
    private final boolean allowInsecureHttp;
    private final boolean logParams;

    private Config(Builder b) {
        this.baseUrl = b.baseUrl;
        this.sender = b.sender;
        this.privateKey = b.privateKey;
        this.locale = b.locale;
        this.connectTimeout = b.connectTimeout;
        this.requestTimeout = b.requestTimeout;
        this.maxResponseBytes = b.maxResponseBytes;
        this.maxRetries = b.maxRetries;
        this.retryBackoff = b.retryBackoff;
        this.acceptUnsignedSuccess = b.acceptUnsignedSuccess;
        this.allowInsecureHttp = b.allowInsecureHttp;
        this.logParams = b.logParams;
    }

    /**
     * A builder with the three settings every client needs.
     *
     * @param baseUrl the service's base URL, e.g. {@code https://baas.example.com}
     * @param sender your sender name
     * @param privateKey your private key
     * @return the builder
     */
    public static Builder builder(String baseUrl, String sender, PrivateKey privateKey) {
        return new Builder(baseUrl, sender, privateKey);
    }

    /**
     * A builder holding this configuration's settings, to change some.
     *
     * @return the builder
     */
    public Builder toBuilder() {
        Builder b = new Builder(baseUrl, sender, privateKey);
        b.locale = locale;
        b.connectTimeout = connectTimeout;
        b.requestTimeout = requestTimeout;
        b.maxResponseBytes = maxResponseBytes;
        b.maxRetries = maxRetries;
        b.retryBackoff = retryBackoff;
        b.acceptUnsignedSuccess = acceptUnsignedSuccess;
        b.allowInsecureHttp = allowInsecureHttp;
        b.logParams = logParams;
        return b;
    }

    /** Builds a {@link Config}; {@link #build()} checks every setting. */
    public static final class Builder {
        private final String baseUrl;
        private final String sender;
        private final PrivateKey privateKey;
        private String locale = DEFAULT_LOCALE;
        private Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;
        private Duration requestTimeout = DEFAULT_REQUEST_TIMEOUT;
        private long maxResponseBytes = DEFAULT_MAX_RESPONSE_BYTES;
        private int maxRetries = DEFAULT_MAX_RETRIES;
        private Duration retryBackoff = DEFAULT_RETRY_BACKOFF;
        private boolean acceptUnsignedSuccess;
        private boolean allowInsecureHttp;
        private boolean logParams;

        private Builder(String baseUrl, String sender, PrivateKey privateKey) {
            this.baseUrl = baseUrl;
            this.sender = sender;
            this.privateKey = privateKey;
        }

        /**
         * The locale sent in every envelope, signed as written.
         *
         * @param locale {@code <language>_<COUNTRY>}, e.g. {@code en_KE}
         * @return this builder
         */
        public Builder locale(String locale) {
            this.locale = locale;
            return this;
        }

        /**
         * Time to establish a connection.
         *
         * @param timeout the limit
         * @return this builder
         */
        public Builder connectTimeout(Duration timeout) {
            this.connectTimeout = timeout;
            return this;
        }

        /**
         * Time for a whole exchange (sending the request and reading the answer).
         *
         * @param timeout the limit
         * @return this builder
         */
        public Builder requestTimeout(Duration timeout) {
            this.requestTimeout = timeout;
            return this;
        }

        /**
         * Largest answer body accepted.
         *
         * @param bytes the limit
         * @return this builder
         */
        public Builder maxResponseBytes(long bytes) {
            this.maxResponseBytes = bytes;
            return this;
        }

        /**
         * Automatic retries of a retryable failure; a call that moves money is retried only
         * when its bytes provably never left.
         *
         * @param retries 0 or more
         * @return this builder
         */
        public Builder maxRetries(int retries) {
            this.maxRetries = retries;
            return this;
        }

        /**
         * Wait before the first retry, doubled for each next one (at most 10 s).
         *
         * @param backoff the first wait
         * @return this builder
         */
        public Builder retryBackoff(Duration backoff) {
            this.retryBackoff = backoff;
            return this;
        }

        /**
         * Accept a success answer that carries no signature (off: such an answer is refused).
         *
         * @param accept whether to accept it
         * @return this builder
         */
        public Builder acceptUnsignedSuccess(boolean accept) {
            this.acceptUnsignedSuccess = accept;
            return this;
        }

        /**
         * Allow plain {@code http://} to a host other than loopback (off: signing
         * authenticates a message but does not hide it).
         *
         * @param allow whether to allow it
         * @return this builder
         */
        public Builder allowInsecureHttp(boolean allow) {
            this.allowInsecureHttp = allow;
            return this;
        }

        /**
         * Log each call's parameters at DEBUG (off: they carry account numbers and names).
         *
         * @param log whether to log them
         * @return this builder
         */
        public Builder logParams(boolean log) {
            this.logParams = log;
            return this;
        }

        /**
         * The configuration.
         *
         * @return it
         * @throws ConfigException naming the first unusable setting
         */
        public Config build() {
            check();
            return new Config(this);
        }

        private void check() {
            if (baseUrl == null || !(baseUrl.startsWith("https://") || baseUrl.startsWith("http://"))) {
                throw new ConfigException("baseUrl", "must start with https:// or http://");
            }
            URI uri;
            try {
                uri = new URI(baseUrl);
            } catch (URISyntaxException e) {
                throw new ConfigException("baseUrl", "is not a URL: " + e.getReason());
            }
            if (uri.getHost() == null || uri.getHost().isEmpty()) {
                throw new ConfigException("baseUrl", "has no host");
            }
            if (uri.getRawUserInfo() != null) {
                throw new ConfigException("baseUrl", "must not hold a user name or password");
            }
            if (baseUrl.startsWith("http://") && !allowInsecureHttp && !isLoopback(uri.getHost())) {
                throw new ConfigException("baseUrl", "plain http:// is allowed only to loopback (a local "
                        + "sandbox); use https:// (or set allowInsecureHttp)");
            }
            if (sender == null || sender.isBlank()) {
                throw new ConfigException("sender", "must not be empty");
            }
            if (privateKey == null || privateKey.isEmpty()) {
                throw new ConfigException("privateKey", "must be a non-empty PrivateKey");
            }
            if (locale == null || !locale.matches("[A-Za-z]+_[A-Za-z]+")) {
                throw new ConfigException("locale", "must have the form <language>_<COUNTRY>, e.g. en_KE");
            }
            positive("connectTimeout", connectTimeout);
            positive("requestTimeout", requestTimeout);
            if (maxResponseBytes <= 0) {
                throw new ConfigException("maxResponseBytes", "must be greater than zero");
            }
            if (maxRetries < 0) {
                throw new ConfigException("maxRetries", "must not be negative");
            }
            if (retryBackoff == null || retryBackoff.isNegative()) {
                throw new ConfigException("retryBackoff", "must not be negative");
            }
        }

        private static void positive(String name, Duration d) {
            if (d == null || d.isZero() || d.isNegative()) {
                throw new ConfigException(name, "must be greater than zero");
            }
        }
    }

    static boolean isLoopback(String host) {
        String h = host.toLowerCase(Locale.ROOT);
        if (h.equals("localhost") || h.equals("[::1]") || h.equals("::1")) {
            return true;
        }
        String[] octets = h.split("\\.", -1);
        if (octets.length != 4 || !octets[0].equals("127")) {
            return false;
        }
        for (String o : octets) {
            if (!o.matches("[0-9]{1,3}") || Integer.parseInt(o) > 255) {
                return false;
            }
        }
        return true;
    }

    /**
     * The URL of an operation's path.
     *
     * @param path the wire path, e.g. {@code /trans/v2/applyForTransfer}
     * @return the absolute URL
     */
    public URI url(String path) {
        String base = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        return URI.create(path.startsWith("/") ? base + path : base + "/" + path);
    }

    /** @return the base URL */
    public String baseUrl() {
        return baseUrl;
    }

    /** @return your sender name */
    public String sender() {
        return sender;
    }

    /** @return your private key (it prints as {@value PrivateKey#REDACTED}) */
    public PrivateKey privateKey() {
        return privateKey;
    }

    /** @return the locale sent */
    public String locale() {
        return locale;
    }

    /** @return the connect timeout */
    public Duration connectTimeout() {
        return connectTimeout;
    }

    /** @return the time limit of one exchange */
    public Duration requestTimeout() {
        return requestTimeout;
    }

    /** @return the largest answer accepted, in bytes */
    public long maxResponseBytes() {
        return maxResponseBytes;
    }

    /** @return the automatic retries */
    public int maxRetries() {
        return maxRetries;
    }

    /** @return the wait before the first retry */
    public Duration retryBackoff() {
        return retryBackoff;
    }

    /** @return whether an unsigned success is accepted */
    public boolean acceptUnsignedSuccess() {
        return acceptUnsignedSuccess;
    }

    /** @return whether plain http:// is allowed beyond loopback */
    public boolean allowInsecureHttp() {
        return allowInsecureHttp;
    }

    /** @return whether parameters are logged at DEBUG */
    public boolean logParams() {
        return logParams;
    }

    /**
     * The settings, the key written {@value PrivateKey#REDACTED}.
     *
     * @return a description
     */
    @Override
    public String toString() {
        return "Config[baseUrl=" + baseUrl + ", sender=" + sender + ", privateKey=" + privateKey
                + ", locale=" + locale + ", connectTimeout=" + connectTimeout + ", requestTimeout="
                + requestTimeout + ", maxRetries=" + maxRetries + "]";
    }
}
