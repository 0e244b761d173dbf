<?php

declare(strict_types=1);

namespace Baas\Runtime\Tests;

use Baas\Runtime\Envelope;
use Baas\Runtime\Notification\DeliveryId;
use Baas\Runtime\Notification\FileProcessedStore;
use Baas\Runtime\Notification\NotificationHandler;
use Baas\Runtime\Notification\PdoProcessedStore;
use Baas\Runtime\Notification\ProcessedStore;
use Baas\Runtime\WireObject;
use Baas\Signing\Notification;
use Baas\Signing\NotificationException;
use Baas\Signing\NotificationVerifier;
use Baas\Signing\PrivateKey;
use PHPUnit\Framework\TestCase;

/** The notification endpoint: verified, processed once across restarts and outages, `ok`. */
final class NotificationTest extends TestCase
{
    private const DAY = 86_400_000;

    private string $dir;

    protected function setUp(): void
    {
        $this->dir = sys_get_temp_dir() . '/baas-php-test-' . bin2hex(random_bytes(6));
        mkdir($this->dir);
    }

    protected function tearDown(): void
    {
        foreach (glob($this->dir . '/*') ?: [] as $file) {
            unlink($file);
        }
        rmdir($this->dir);
    }

    /** A notification as the service sends it (signed with the partner's key), dated `$at`. */
    private static function body(string $requestId, int $at, string $type = '0028', string $sender = 'baas-sandbox'): string
    {
        return Envelope::sign(new WireObject([
            'requestId' => $requestId, 'sender' => $sender, 'notificationType' => $type, 'locale' => 'en_KE',
            'timestamp' => $at, 'salt' => bin2hex(random_bytes(12)), 'params' => new WireObject(['txId' => 'TX1', 'amount' => '10.00']),
        ]), new PrivateKey(Support::KEY));
    }

    /** @param list<string> $processed */
    private function handler(ProcessedStore $store, array &$processed): NotificationHandler
    {
        return new NotificationHandler(
            new NotificationVerifier(new PrivateKey(Support::KEY), 'baas-sandbox'),
            $store,
            function (Notification $n) use (&$processed): void {
                $processed[] = $n->requestId;
            },
        );
    }

    public function testANotificationIsProcessedOnceAndAnsweredOk(): void
    {
        $processed = [];
        $now = Envelope::nowMillis();
        $handler = $this->handler(new FileProcessedStore($this->dir . '/seen'), $processed);
        $body = self::body('N1', $now);
        self::assertSame('ok', $handler->handle($body));
        self::assertSame('ok', $handler->handle(self::body('N1', $now + 1000)), 'a re-delivery, re-signed');
        self::assertSame(['N1'], $processed);
        // A restart: a new store on the same file.
        $handler = $this->handler(new FileProcessedStore($this->dir . '/seen'), $processed);
        self::assertSame('ok', $handler->handle($body));
        self::assertSame(['N1'], $processed);
    }

    public function testATamperedOrForeignNotificationIsRefusedAndNotProcessed(): void
    {
        $processed = [];
        $handler = $this->handler(new FileProcessedStore($this->dir . '/seen'), $processed);
        $now = Envelope::nowMillis();
        foreach ([
            'tampered' => str_replace('10.00', '99.00', self::body('N2', $now)),
            'another sender' => self::body('N3', $now, '0028', 'someone-else'),
            'stale' => self::body('N4', $now - 2 * self::DAY),
        ] as $what => $body) {
            try {
                $handler->handle($body);
                self::fail($what . ' was accepted');
            } catch (NotificationException $e) {
                self::assertNotSame('', $e->kind());
            }
        }
        self::assertSame([], $processed);
    }

    public function testTheHorizonRunsFromRecordingNotFromTheMessagesTimestamp(): void
    {
        // Recorded now; the receiver is down for 3 days (longer than the 24 h freshness window);
        // the service re-delivers the notification re-signed with a fresh timestamp.
        $recordedAt = Envelope::nowMillis();
        $processed = [];
        $this->handler(new FileProcessedStore($this->dir . '/seen', nowMillis: $recordedAt), $processed)
            ->handle(self::body('N5', $recordedAt), $recordedAt);
        $later = $recordedAt + 3 * self::DAY;
        $afterOutage = $this->handler(new FileProcessedStore($this->dir . '/seen', nowMillis: $later), $processed);
        self::assertSame('ok', $afterOutage->handle(self::body('N5', $later), $later));
        self::assertSame(['N5'], $processed, 'processed twice after an outage longer than the window');
        // Past the horizon (30 days after recording), the id is forgotten and the file compacted.
        $store = new FileProcessedStore($this->dir . '/seen', nowMillis: $recordedAt + 31 * self::DAY);
        self::assertFalse($store->isProcessed(new DeliveryId('N5', '0028')));
        self::assertSame('', file_get_contents($this->dir . '/seen'));
    }

    public function testAnyIdIsRecordedExactly(): void
    {
        $ids = ["a b", "cr\rid", "lf\nid", "ls\u{2028}id", "nel\u{0085}id", "%41", "tab\tid", "x"];
        $store = new FileProcessedStore($this->dir . '/seen');
        foreach ($ids as $id) {
            $store->record(new DeliveryId($id, '00 28'));
        }
        $reopened = new FileProcessedStore($this->dir . '/seen');
        foreach ($ids as $id) {
            self::assertTrue($reopened->isProcessed(new DeliveryId($id, '00 28')), json_encode($id) ?: '');
        }
        self::assertFalse($reopened->isProcessed(new DeliveryId('A', '00 28')), '%41 is not A');
        self::assertFalse($reopened->isProcessed(new DeliveryId('a', '00 28')));
        self::assertSame(count($ids), substr_count((string) file_get_contents($this->dir . '/seen'), "\n"));
        self::assertSame('0600', substr(sprintf('%o', fileperms($this->dir . '/seen')), -4));
    }

    public function testAnotherProcessesRecordIsSeen(): void
    {
        $mine = new FileProcessedStore($this->dir . '/seen');
        $other = new FileProcessedStore($this->dir . '/seen');
        self::assertFalse($mine->isProcessed(new DeliveryId('N6', '0028')));
        $other->record(new DeliveryId('N6', '0028'));
        self::assertTrue($mine->isProcessed(new DeliveryId('N6', '0028')));
    }

    public function testAFailureToRecordStillAcknowledgesAProcessedNotification(): void
    {
        $failing = new class implements ProcessedStore {
            public function isProcessed(DeliveryId $id): bool
            {
                return false;
            }

            public function record(DeliveryId $id): void
            {
                throw new \RuntimeException('disk full');
            }
        };
        $processed = [];
        $handler = $this->handler($failing, $processed);
        self::assertSame('ok', $handler->handle(self::body('N7', Envelope::nowMillis())));
        self::assertSame(['N7'], $processed);
        self::assertSame('disk full', $handler->lastRecordFailure()?->getMessage());
    }

    public function testAFailingProcessingIsNotRecordedSoItIsDeliveredAgain(): void
    {
        $store = new FileProcessedStore($this->dir . '/seen');
        $handler = new NotificationHandler(
            new NotificationVerifier(new PrivateKey(Support::KEY), 'baas-sandbox'),
            $store,
            function (): void {
                throw new \DomainException('database down');
            },
        );
        try {
            $handler->handle(self::body('N8', Envelope::nowMillis()));
            self::fail('no exception');
        } catch (\DomainException) {
        }
        self::assertFalse($store->isProcessed(new DeliveryId('N8', '0028')));
    }

    public function testThePdoStoreKeepsIdsExactlyAndForItsHorizon(): void
    {
        if (!extension_loaded('pdo_sqlite')) {
            self::assertNotSame('1', getenv('BAAS_REQUIRE_EXTENSIONS'), 'BAAS_REQUIRE_EXTENSIONS=1 but pdo_sqlite is not loaded');
            self::markTestSkipped('pdo_sqlite is not installed (Debian: php-sqlite3)');
        }
        $pdo = new \PDO('sqlite::memory:');
        $now = Envelope::nowMillis();
        $store = new PdoProcessedStore($pdo, nowMillis: $now);
        $store->createTable();
        $store->record(new DeliveryId("cr\rlf\nls\u{2028}", '0028'));
        self::assertTrue($store->isProcessed(new DeliveryId("cr\rlf\nls\u{2028}", '0028')));
        self::assertFalse($store->isProcessed(new DeliveryId("cr\rlf\nls", '0028')));
        $store->record(new DeliveryId("cr\rlf\nls\u{2028}", '0028')); // again: no duplicate key
        self::assertTrue((new PdoProcessedStore($pdo, nowMillis: $now + 3 * self::DAY))->isProcessed(new DeliveryId("cr\rlf\nls\u{2028}", '0028')));
        self::assertFalse((new PdoProcessedStore($pdo, nowMillis: $now + 31 * self::DAY))->isProcessed(new DeliveryId("cr\rlf\nls\u{2028}", '0028')));
    }
}
