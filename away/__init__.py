"""The away channels' own parts (RULINGS P74–P76): how a player is told who is not looking.

``models`` holds the Web Push ``Device`` (a browser's subscription, added from the devices page,
removed on the push service's 404/410), ``services`` its writes and ``selectors`` its reads.
``push`` and ``email`` are the two away channels (with the unsubscribe tokens, RFC 8058),
registered with ``notifications.delivery`` from ``AwayConfig.ready``; ``tasks`` queues and runs
their Celery tasks: one per device or mail, retried with backoff, the notice checked again at send
time (``notifications.current``). ``vapid`` is the key pair from the environment (``manage.py
vapid_keys`` makes one). ``views`` are the devices page and the e-mail unsubscribe pages.
"""
