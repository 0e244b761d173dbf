<?php

declare(strict_types=1);

namespace Baas\Runtime\Notification;

/**
 * Processed notifications in a database table, through PDO (any driver: SQLite, MySQL,
 * PostgreSQL): what several receivers behind a load balancer share. The ids are bound as
 * parameters, so any id is kept exactly. {@see createTable()} makes the table (or write your own
 * migration with the same columns and primary key).
 */
final class PdoProcessedStore implements ProcessedStore
{
    /**
     * @param \PDO $pdo the connection (errors as exceptions: `PDO::ERRMODE_EXCEPTION` is set)
     * @param string $table the table's name (letters, digits, `_`)
     * @param int $horizon seconds an id is kept after it was recorded
     * @param int|null $nowMillis the time to use as now (tests), or null for the clock
     */
    public function __construct(
        private readonly \PDO $pdo,
        private readonly string $table = 'baas_processed_notifications',
        public readonly int $horizon = FileProcessedStore::DEFAULT_HORIZON,
        private readonly ?int $nowMillis = null,
    ) {
        if (preg_match('/^[A-Za-z_][A-Za-z0-9_]*$/D', $table) !== 1) {
            throw new \InvalidArgumentException('the table name must be letters, digits and _');
        }
        $pdo->setAttribute(\PDO::ATTR_ERRMODE, \PDO::ERRMODE_EXCEPTION);
    }

    /**
     * Creates the table if it is missing: `notification_type`, `request_id` (the primary key)
     * and `recorded_at` (epoch milliseconds).
     */
    public function createTable(): void
    {
        $this->pdo->exec('CREATE TABLE IF NOT EXISTS ' . $this->table . ' ('
            . 'notification_type VARCHAR(64) NOT NULL, request_id VARCHAR(255) NOT NULL, '
            . 'recorded_at BIGINT NOT NULL, PRIMARY KEY (notification_type, request_id))');
    }

    /**
     * Whether the notification was recorded within the horizon.
     *
     * @param DeliveryId $id the notification
     * @return bool whether it was processed
     */
    public function isProcessed(DeliveryId $id): bool
    {
        $query = $this->pdo->prepare('SELECT recorded_at FROM ' . $this->table
            . ' WHERE notification_type = ? AND request_id = ?');
        $query->execute([$id->notificationType, $id->requestId]);
        $at = $query->fetchColumn();
        return $at !== false && $this->now() - (int) $at <= $this->horizon * 1000;
    }

    /**
     * Records the id (a row recorded earlier is renewed), and forgets ids older than the horizon.
     *
     * @param DeliveryId $id the notification
     * @throws \PDOException when the database refuses
     */
    public function record(DeliveryId $id): void
    {
        $now = $this->now();
        $this->pdo->prepare('DELETE FROM ' . $this->table . ' WHERE recorded_at < ? OR (notification_type = ? AND request_id = ?)')
            ->execute([$now - $this->horizon * 1000, $id->notificationType, $id->requestId]);
        $this->pdo->prepare('INSERT INTO ' . $this->table . ' (notification_type, request_id, recorded_at) VALUES (?, ?, ?)')
            ->execute([$id->notificationType, $id->requestId, $now]);
    }

    private function now(): int
    {
        return $this->nowMillis ?? (int) floor(microtime(true) * 1000);
    }
}
