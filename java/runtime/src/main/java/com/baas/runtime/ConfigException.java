package com.baas.runtime;

/** The configuration cannot be used; {@link #field()} names the setting. Nothing was sent. */
public final class ConfigException extends BaasException {
    private static final long serialVersionUID = 1L;

    private final String field;

    /**
     * An unusable setting.
     *
     * @param field the setting, e.g. {@code baseUrl}
     * @param message what is wrong with it
     */
    public ConfigException(String field, String message) {
        super("invalid configuration `" + field + "`: " + message, null);
        this.field = field;
    }

    /**
     * The setting that cannot be used.
     *
     * @return its name
     */
    public String field() {
        return field;
    }

    /** Never sent. */
    @Override
    public boolean mayHaveReachedService() {
        return false;
    }
}
